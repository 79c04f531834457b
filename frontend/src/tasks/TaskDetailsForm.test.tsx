import { fireEvent, screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";

import { renderWithClient, signInAsTester } from "../test/render";
import { task, taskServer } from "../test/taskServer";
import { TaskPanel } from "./TaskPanel";

async function openDetails(title: string) {
  const rendered = renderWithClient(<TaskPanel />);
  await rendered.user.click(await screen.findByRole("button", { name: `Edit details of ${title}` }));
  return { ...rendered, form: screen.getByRole("form", { name: `Details of ${title}` }) };
}

// Date and time inputs take their value whole, as a picker sets it.
const pick = (input: HTMLElement, value: string) => fireEvent.change(input, { target: { value } });

describe("Editing a task's details", () => {
  beforeEach(signInAsTester);

  it("sets a due date and time: the PATCH carries both, and the chip shows them", async () => {
    const server = taskServer([task(3, "Pay rent")]);
    const { user, form } = await openDetails("Pay rent");
    expect(within(form).getByLabelText("Due date")).toHaveFocus();

    pick(within(form).getByLabelText("Due date"), "2031-05-02");
    pick(within(form).getByLabelText("Due time"), "09:00");
    await user.click(within(form).getByRole("button", { name: "Save" }));

    expect(server.callsTo("PATCH /api/tasks/3").map((call) => call.body)).toEqual([
      { due_date: "2031-05-02", due_time: "09:00" },
    ]);
    expect(screen.queryByRole("form", { name: "Details of Pay rent" })).not.toBeInTheDocument();
    const item = screen.getByRole("checkbox", { name: "Pay rent" }).closest("li") as HTMLElement;
    await vi.waitFor(() => expect(item).toHaveTextContent("Fri 2 May 2031 09:00"));
    await vi.waitFor(() =>
      expect(screen.getByRole("button", { name: "Edit details of Pay rent" })).toHaveFocus(),
    );
  });

  it("sends only what changed, and nothing when nothing did", async () => {
    const server = taskServer([task(3, "Pay rent", { due_date: "2031-05-02", due_time: "09:00" })]);
    const { user, form } = await openDetails("Pay rent");

    pick(within(form).getByLabelText("Due time"), "");
    await user.click(within(form).getByRole("button", { name: "Save" }));
    expect(server.callsTo("PATCH /api/tasks/3")[0]?.body).toEqual({ due_date: "2031-05-02", due_time: null });

    await user.click(screen.getByRole("button", { name: "Edit details of Pay rent" }));
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(server.callsTo("PATCH /api/tasks/3")).toHaveLength(1);
  });

  it("clears a due date (and its time) with its Clear button", async () => {
    const server = taskServer([task(3, "Pay rent", { due_date: "2031-05-02", due_time: "09:00" })]);
    const { user, form } = await openDetails("Pay rent");

    await user.click(within(form).getByRole("button", { name: "Clear due date" }));
    expect(within(form).getByLabelText("Due date")).toHaveValue("");
    expect(within(form).getByLabelText("Due time")).toHaveValue("");
    await user.click(within(form).getByRole("button", { name: "Save" }));

    expect(server.callsTo("PATCH /api/tasks/3")[0]?.body).toEqual({ due_date: null });
    const item = screen.getByRole("checkbox", { name: "Pay rent" }).closest("li") as HTMLElement;
    expect(item.querySelector(".due-chip")).toBeNull();
  });

  it("won't save a time without a day, and says why", async () => {
    const server = taskServer([task(3, "Pay rent")]);
    const { user, form } = await openDetails("Pay rent");

    pick(within(form).getByLabelText("Due time"), "09:00");

    expect(within(form).getByLabelText("Due time")).toHaveAccessibleDescription(
      "Pick a day for that time, or clear it.",
    );
    expect(within(form).getByRole("button", { name: "Save" })).toBeDisabled();
    await user.keyboard("{Enter}");
    expect(server.callsTo("PATCH /api/tasks/3")).toHaveLength(0);
  });

  it("clears a priority by choosing None", async () => {
    const server = taskServer([task(4, "Fix the roof", { priority: "high" })]);
    const { user, form } = await openDetails("Fix the roof");
    expect(within(form).getByRole("combobox", { name: "Priority" })).toHaveValue("high");

    await user.selectOptions(within(form).getByRole("combobox", { name: "Priority" }), "None");
    await user.click(within(form).getByRole("button", { name: "Save" }));

    expect(server.callsTo("PATCH /api/tasks/4")[0]?.body).toEqual({ priority: "none" });
    await vi.waitFor(() =>
      expect(screen.getByRole("checkbox", { name: "Fix the roof" })).not.toHaveAccessibleDescription(),
    );
  });

  it("moves a task to another list, and the counts follow", async () => {
    const server = taskServer([task(5, "Buy milk")]);
    const { user, form } = await openDetails("Buy milk");
    const list = within(form).getByRole("combobox", { name: "List" });
    await vi.waitFor(() => expect(within(list).getAllByRole("option")).toHaveLength(2));

    await user.selectOptions(list, "Shopping");
    await user.click(within(form).getByRole("button", { name: "Save" }));

    expect(server.callsTo("PATCH /api/tasks/5")[0]?.body).toEqual({ list: "Shopping" });
    const lists = screen.getByRole("group", { name: "Lists" });
    expect(await within(lists).findByRole("button", { name: "Shopping, 1 pending" })).toBeInTheDocument();
    expect(within(lists).getByRole("button", { name: "Inbox, 0 pending" })).toBeInTheDocument();
  });

  it("sets tags as typed (lower-cased, # dropped, once each), and clears them when emptied", async () => {
    const server = taskServer([task(6, "Call mom")]);
    const { user, form } = await openDetails("Call mom");

    await user.type(within(form).getByRole("textbox", { name: "Tags" }), "#Family, phone family");
    await user.click(within(form).getByRole("button", { name: "Save" }));
    expect(server.callsTo("PATCH /api/tasks/6")[0]?.body).toEqual({ tags: ["family", "phone"] });
    expect(await screen.findByRole("button", { name: "Filter by tag #phone" })).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Edit details of Call mom" }));
    const tags = screen.getByRole("textbox", { name: "Tags" });
    expect(tags).toHaveValue("family phone");
    await user.clear(tags);
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(server.callsTo("PATCH /api/tasks/6")[1]?.body).toEqual({ tags: [] });
    await vi.waitFor(() =>
      expect(screen.queryByRole("button", { name: /Filter by tag/ })).not.toBeInTheDocument(),
    );
  });

  it("sets a repeat in words, leaves it alone when untouched, and stops it when emptied", async () => {
    const server = taskServer([
      task(3, "Pay rent", {
        due_date: "2031-05-01",
        repeat: "FREQ=MONTHLY;BYMONTHDAY=1",
        repeat_text: "every month on the 1st",
      }),
      task(4, "Bins"),
    ]);
    const { user, form } = await openDetails("Bins");
    await user.type(within(form).getByLabelText("Repeats"), "every other tuesday");
    await user.click(within(form).getByRole("button", { name: "Save" }));
    expect(server.callsTo("PATCH /api/tasks/4").map((call) => call.body)).toEqual([
      { repeat: "every other tuesday" },
    ]);

    await user.click(screen.getByRole("button", { name: "Edit details of Pay rent" }));
    const rent = screen.getByRole("form", { name: "Details of Pay rent" });
    expect(within(rent).getByLabelText("Repeats")).toHaveValue("every month on the 1st");
    await user.clear(within(rent).getByLabelText("Repeats"));
    await user.click(within(rent).getByRole("button", { name: "Save" }));
    expect(server.callsTo("PATCH /api/tasks/3").map((call) => call.body)).toEqual([{ repeat: null }]);
  });

  it("cancels with Escape: nothing sent, focus back on the details button", async () => {
    const server = taskServer([task(3, "Pay rent")]);
    const { user, form } = await openDetails("Pay rent");
    pick(within(form).getByLabelText("Due date"), "2031-05-02");

    await user.keyboard("{Escape}");

    expect(screen.queryByRole("form", { name: "Details of Pay rent" })).not.toBeInTheDocument();
    expect(server.callsTo("PATCH /api/tasks/3")).toHaveLength(0);
    const button = screen.getByRole("button", { name: "Edit details of Pay rent" });
    expect(button).toHaveAttribute("aria-expanded", "false");
    await vi.waitFor(() => expect(button).toHaveFocus());
  });

  describe("its reminder", () => {
    const reminderOf = (form: HTMLElement) => within(form).getByRole("combobox", { name: "Reminder" });
    const optionNamed = (form: HTMLElement, name: string) =>
      within(reminderOf(form)).getByRole("option", { name }) as HTMLOptionElement;

    it("moves it before the due time: only remind_before is sent, and the bell says when", async () => {
      const server = taskServer([
        task(3, "Pay rent", {
          due_date: "2031-05-02",
          due_time: "09:00",
          remind_at: "2031-05-02T09:00:00Z",
          remind_before: 0,
        }),
      ]);
      const { user, form } = await openDetails("Pay rent");
      expect(reminderOf(form)).toHaveDisplayValue("At its time");

      await user.selectOptions(reminderOf(form), "15 minutes before");
      await user.click(within(form).getByRole("button", { name: "Save" }));

      await vi.waitFor(() =>
        expect(screen.queryByRole("form", { name: "Details of Pay rent" })).not.toBeInTheDocument(),
      );
      expect(server.callsTo("PATCH /api/tasks/3").map((call) => call.body)).toEqual([{ remind_before: 15 }]);
      await vi.waitFor(() =>
        expect(screen.getByRole("checkbox", { name: "Pay rent" })).toHaveAccessibleDescription(
          /Reminder Fri 2 May 2031 08:45/,
        ),
      );
    });

    it("needs a due date for the choices before it, and sends a set time on the account's clock", async () => {
      const server = taskServer([task(4, "Call the bank")]);
      const { user, form } = await openDetails("Call the bank");
      expect(reminderOf(form)).toHaveDisplayValue("None");
      expect(optionNamed(form, "15 minutes before").disabled).toBe(true);
      expect(reminderOf(form)).toHaveAccessibleDescription("Reminders before the task need a due date.");

      await user.selectOptions(reminderOf(form), "At a set time…");
      const at = within(form).getByLabelText("Remind at");
      expect(at).toHaveValue("");
      expect(at).toHaveAccessibleDescription("Pick when to be reminded.");
      expect(within(form).getByRole("button", { name: "Save" })).toBeDisabled();

      pick(at, "2020-01-01T09:00");
      expect(at).toHaveAccessibleDescription("Pick a time in the future.");
      pick(at, "2031-05-02T08:30");
      await user.click(within(form).getByRole("button", { name: "Save" }));

      expect(server.callsTo("PATCH /api/tasks/4").map((call) => call.body)).toEqual([
        { remind_at: "2031-05-02T08:30:00" },
      ]);
      await vi.waitFor(() =>
        expect(screen.getByRole("checkbox", { name: "Call the bank" })).toHaveAccessibleDescription(
          "Reminder Fri 2 May 2031 08:30",
        ),
      );
    });

    it("shows 'At its time' for a task given its first time (the server's default), and None turns that off", async () => {
      const server = taskServer([task(5, "Dentist"), task(6, "Gym")]);
      const { user, form } = await openDetails("Dentist");
      pick(within(form).getByLabelText("Due date"), "2031-05-02");
      pick(within(form).getByLabelText("Due time"), "09:00");
      expect(reminderOf(form)).toHaveDisplayValue("At its time");
      await user.click(within(form).getByRole("button", { name: "Save" }));
      expect(server.callsTo("PATCH /api/tasks/5")[0]?.body).toEqual({
        due_date: "2031-05-02",
        due_time: "09:00",
      });

      await user.click(screen.getByRole("button", { name: "Edit details of Gym" }));
      const gym = screen.getByRole("form", { name: "Details of Gym" });
      pick(within(gym).getByLabelText("Due date"), "2031-05-02");
      pick(within(gym).getByLabelText("Due time"), "18:00");
      await user.selectOptions(reminderOf(gym), "None");
      await user.click(within(gym).getByRole("button", { name: "Save" }));
      await vi.waitFor(() => expect(server.callsTo("PATCH /api/tasks/6")).toHaveLength(1));
      expect(server.callsTo("PATCH /api/tasks/6")[0]?.body).toEqual({
        due_date: "2031-05-02",
        due_time: "18:00",
        remind_at: null,
      });
    });

    it("leaves an untouched reminder to the server (it moves with the due), and offers its own offset", async () => {
      const server = taskServer([
        task(7, "Pay rent", {
          due_date: "2031-05-02",
          due_time: "09:00",
          remind_at: "2031-05-02T07:00:00Z",
          remind_before: 120,
        }),
      ]);
      const { user, form } = await openDetails("Pay rent");
      expect(reminderOf(form)).toHaveDisplayValue("2 hours before");

      pick(within(form).getByLabelText("Due date"), "2031-05-03");
      await user.click(within(form).getByRole("button", { name: "Save" }));
      expect(server.callsTo("PATCH /api/tasks/7")[0]?.body).toEqual({
        due_date: "2031-05-03",
        due_time: "09:00",
      });

      await user.click(screen.getByRole("button", { name: "Edit details of Pay rent" }));
      const again = screen.getByRole("form", { name: "Details of Pay rent" });
      await user.click(within(again).getByRole("button", { name: "Clear due date" }));
      // A reminder counted from the due goes with it.
      expect(reminderOf(again)).toHaveDisplayValue("None");
    });

    it("shows the server's refusal in place and keeps the form open", async () => {
      const server = taskServer([task(8, "Call the bank")], {
        refuse: (changes) => ("remind_at" in changes ? "remind_at must be in the future" : null),
      });
      const { user, form } = await openDetails("Call the bank");
      await user.selectOptions(reminderOf(form), "At a set time…");
      pick(within(form).getByLabelText("Remind at"), "2031-05-02T08:30");
      await user.click(within(form).getByRole("button", { name: "Save" }));

      expect(await within(form).findByRole("alert")).toHaveTextContent(
        "Couldn't save: remind_at must be in the future",
      );
      expect(screen.getByRole("form", { name: "Details of Call the bank" })).toBeInTheDocument();
      expect(server.callsTo("PATCH /api/tasks/8")).toHaveLength(1);
      expect(screen.getByRole("checkbox", { name: "Call the bank" })).not.toHaveAccessibleDescription();
    });
  });
});
