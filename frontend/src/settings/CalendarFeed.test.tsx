import { screen } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";

import { json, noContent } from "../test/fetchMock";
import { signedInServer } from "../test/fixtures";
import { renderWithClient, signInAsTester } from "../test/render";
import { Toaster } from "../ui/Toaster";
import { CalendarFeed } from "./CalendarFeed";

describe("The calendar feed's controls", () => {
  beforeEach(signInAsTester);

  it("makes a link, shows it once, makes a new one, and turns it off", async () => {
    let active = false;
    let made = 0;
    const server = signedInServer({
      "GET /api/calendar/feed": () => json({ active, created_at: active ? "2026-11-24T12:00:00Z" : null }),
      "POST /api/calendar/feed": () => {
        active = true;
        made += 1;
        return json(
          { url: `https://todo.example/api/calendar/secret${made}.ics`, created_at: "2026-11-24T12:00:00Z" },
          201,
        );
      },
      "DELETE /api/calendar/feed": () => {
        active = false;
        return noContent();
      },
    });
    const { user } = renderWithClient(<CalendarFeed />);

    await user.click(await screen.findByRole("button", { name: "Get a calendar link" }));
    expect(await screen.findByLabelText("Your calendar link")).toHaveValue(
      "https://todo.example/api/calendar/secret1.ics",
    );

    await user.click(await screen.findByRole("button", { name: "Make a new link" }));
    await vi.waitFor(() =>
      expect(screen.getByLabelText("Your calendar link")).toHaveValue(
        "https://todo.example/api/calendar/secret2.ics",
      ),
    );
    expect(
      await screen.findByText("New calendar link made; the old one no longer works."),
    ).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Turn the link off" }));
    await screen.findByRole("button", { name: "Get a calendar link" });
    expect(screen.queryByLabelText("Your calendar link")).not.toBeInTheDocument();
    expect(server.callsTo("POST /api/calendar/feed")).toHaveLength(2);
    expect(server.callsTo("DELETE /api/calendar/feed")).toHaveLength(1);
  });

  it("says in place when a link can't be made (a toast would sit behind the Settings dialog)", async () => {
    signedInServer({
      "GET /api/calendar/feed": () => json({ active: false, created_at: null }),
      "POST /api/calendar/feed": () => json({ detail: "Internal Server Error" }, 500),
    });
    const { user } = renderWithClient(
      <>
        <CalendarFeed />
        <Toaster />
      </>,
    );

    await user.click(await screen.findByRole("button", { name: "Get a calendar link" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Couldn't make a calendar link.");
    expect(screen.getAllByRole("alert")).toHaveLength(1);
    expect(screen.queryByLabelText("Your calendar link")).not.toBeInTheDocument();
  });
});
