/** Short-lived notices (e.g. a task edit the server refused), shown by <Toaster>. */
import { useSyncExternalStore } from "react";

export interface Toast {
  id: number;
  text: string;
}

const LIFETIME_MS = 6000;
let toasts: readonly Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function publish(next: readonly Toast[]) {
  toasts = next;
  for (const listener of listeners) listener();
}

export function dismissToast(id: number): void {
  publish(toasts.filter((toast) => toast.id !== id));
}

export function showToast(text: string): void {
  const id = nextId++;
  publish([...toasts.filter((toast) => toast.text !== text), { id, text }]);
  setTimeout(() => dismissToast(id), LIFETIME_MS);
}

export function clearToasts(): void {
  publish([]);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useToasts(): readonly Toast[] {
  return useSyncExternalStore(subscribe, () => toasts);
}
