/** Push devices and the account's email settings as TanStack Query hooks. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";

import { pushApi, type DeliverySettings, type DeliverySettingsUpdate, type PushDevice } from "../api/pushApi";
import { SW_MESSAGE } from "../sw/pushPayload";
import { currentEndpoint, pushSupport, syncPush, turnOffPush, turnOnPush } from "./push";
import { workerMessage } from "./serviceWorker";

export const pushDevicesKey = ["push", "devices"] as const;
export const pushEndpointKey = ["push", "endpoint"] as const;
export const deliverySettingsKey = ["notifications", "settings"] as const;

/** Signed in: keep the server's copy of this browser's subscription current (see syncPush). */
export function usePushSync(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (pushSupport() !== "supported") return undefined;
    const sync = () =>
      void syncPush()
        .then(() => queryClient.invalidateQueries({ queryKey: ["push"] }))
        .catch(() => undefined);
    sync();
    const onMessage = (event: MessageEvent<unknown>) => {
      if (workerMessage(event)?.type === SW_MESSAGE.subscriptionChanged) sync();
    };
    navigator.serviceWorker.addEventListener("message", onMessage);
    return () => navigator.serviceWorker.removeEventListener("message", onMessage);
  }, [queryClient]);
}

/** The account's devices that get pushes, and which of them is this browser. */
export function usePushDevices() {
  const devices = useQuery({ queryKey: pushDevicesKey, queryFn: pushApi.devices });
  const endpoint = useQuery({ queryKey: pushEndpointKey, queryFn: currentEndpoint, staleTime: 0 });
  const here = endpoint.data ?? null;
  const thisDevice = here === null ? undefined : devices.data?.find((device) => device.endpoint === here);
  return { devices, thisDevice };
}

export function useTurnOnPush() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: turnOnPush,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ["push"] }),
  });
}

export function useTurnOffPush() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (device: PushDevice) => turnOffPush(device),
    onSuccess: (_nothing, device) =>
      queryClient.setQueryData<PushDevice[]>(pushDevicesKey, (devices) =>
        devices?.filter((known) => known.id !== device.id),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ["push"] }),
    meta: { errorMessage: "Couldn't turn push off" },
  });
}

export function useDeliverySettings() {
  return useQuery({ queryKey: deliverySettingsKey, queryFn: pushApi.settings });
}

export function useUpdateDeliverySettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: DeliverySettingsUpdate) => pushApi.updateSettings(change),
    onSuccess: (settings: DeliverySettings) => queryClient.setQueryData(deliverySettingsKey, settings),
    meta: { errorMessage: "Couldn't save the email settings" },
  });
}
