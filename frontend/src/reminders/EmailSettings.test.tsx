import { fireEvent, screen, waitFor } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";

import type { DeliverySettings } from "../api/pushApi";
import { json } from "../test/fetchMock";
import { signedInServer } from "../test/fixtures";
import { renderWithClient, signInAsTester } from "../test/render";
import { EMAIL_UNAVAILABLE, EmailSettings } from "./EmailSettings";

function server(start: Partial<DeliverySettings> = {}) {
  let settings: DeliverySettings = {
    email_reminders: false,
    digest_time: null,
    email: "tester@example.com",
    email_available: true,
    ...start,
  };
  return signedInServer({
    "GET /api/notifications/settings": () => json(settings),
    "PATCH /api/notifications/settings": (call) => {
      settings = { ...settings, ...(call.body as Partial<DeliverySettings>) };
      return json(settings);
    },
  });
}

describe("Email settings", () => {
  beforeEach(signInAsTester);

  it("turns email reminders on, saying where they go", async () => {
    const calls = server();
    const { user } = renderWithClient(<EmailSettings />);
    const toggle = await screen.findByRole("checkbox", { name: "Email reminders" });
    expect(screen.getByText("tester@example.com")).toBeInTheDocument();

    await user.click(toggle);
    await waitFor(() => expect(toggle).toBeChecked());
    expect(calls.callsTo("PATCH /api/notifications/settings").map((call) => call.body)).toEqual([
      { email_reminders: true },
    ]);
  });

  it("turns the daily digest on at 08:00, moves it, and off again", async () => {
    const calls = server();
    const { user } = renderWithClient(<EmailSettings />);
    const digest = await screen.findByRole("checkbox", { name: "Daily digest" });
    const time = screen.getByLabelText("Sent at");
    expect(time).toBeDisabled();

    await user.click(digest);
    await waitFor(() => expect(digest).toBeChecked());
    expect(time).toBeEnabled();
    expect(time).toHaveValue("08:00");
    fireEvent.change(time, { target: { value: "07:30" } });
    await waitFor(() => expect(calls.callsTo("PATCH /api/notifications/settings")).toHaveLength(2));
    await user.click(digest);
    await waitFor(() => expect(digest).not.toBeChecked());

    expect(calls.callsTo("PATCH /api/notifications/settings").map((call) => call.body)).toEqual([
      { digest_time: "08:00" },
      { digest_time: "07:30" },
      { digest_time: null },
    ]);
  });

  it("is switched off, with the reason, when the server can't send email", async () => {
    server({ email_available: false, email_reminders: true, digest_time: "09:00" });
    renderWithClient(<EmailSettings />);
    expect(await screen.findByText(EMAIL_UNAVAILABLE)).toBeInTheDocument();
    for (const name of ["Email reminders", "Daily digest"]) {
      const toggle = screen.getByRole("checkbox", { name });
      expect(toggle).toBeDisabled();
      expect(toggle).not.toBeChecked();
    }
    expect(screen.getByLabelText("Sent at")).toBeDisabled();
  });
});
