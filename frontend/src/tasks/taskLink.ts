/**
 * A link to one task, `/?task=<n>`: what a reminder's notification opens. The task's details
 * open in the task panel once, and the link is then taken out of the address, so a reload or
 * a later visit does not open them again.
 */
const PARAM = "task";

export function linkedTask(): number | null {
  const value = new URLSearchParams(location.search).get(PARAM);
  return value !== null && /^\d{1,10}$/.test(value) ? Number(value) : null;
}

/** Whether the address links to task `id`; if it does, the link is used up. */
export function takeTaskLink(id: number): boolean {
  if (linkedTask() !== id) return false;
  const url = new URL(location.href);
  url.searchParams.delete(PARAM);
  history.replaceState(history.state, "", url);
  return true;
}
