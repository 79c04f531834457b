/**
 * What the signed-in person may do with a list, from GET /api/lists: its role there, who
 * owns it, whether it can be shared, and how its sharing is put into words.
 */
import type { TaskList } from "../api/types";
import { useLists } from "../tasks/useLists";

export type ListRole = TaskList["role"];

const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The role, "owner" when left out (the API's default: a server from before sharing says none). */
export const roleOf = (list: TaskList): ListRole => list.role ?? "owner";

export function findList(lists: readonly TaskList[] | undefined, name: string | null): TaskList | undefined {
  return name === null ? undefined : lists?.find((list) => sameName(list.name, name));
}

/** Only the owner's own lists, and never their Inbox. */
export function canShare(list: TaskList): boolean {
  return roleOf(list) === "owner" && !sameName(list.name, "Inbox");
}

/** Unknown lists (not loaded yet, just made) are taken as editable: the server has the last word. */
export function canEdit(list: TaskList | undefined): boolean {
  return list === undefined || roleOf(list) !== "viewer";
}

export function sharedWithMe(list: TaskList): boolean {
  return roleOf(list) !== "owner";
}

const people = (count: number) => (count === 1 ? "1 person" : `${count} people`);

/** Said after the list's name, and shown as its tooltip; null for a list that is not shared. */
export function sharingWords(list: TaskList): { spoken: string; tooltip: string } | null {
  if (sharedWithMe(list)) {
    const by = list.owner ? `shared by ${list.owner}` : "shared with you";
    const viewOnly = roleOf(list) === "viewer";
    return {
      spoken: viewOnly ? `${by}, view only` : by,
      tooltip: `${by.charAt(0).toUpperCase()}${by.slice(1)}${viewOnly ? " · view only" : ""}`,
    };
  }
  if (!list.shared) return null;
  return {
    spoken: "shared",
    tooltip: list.members > 0 ? `Shared with ${people(list.members)}` : "Shared",
  };
}

/** Whose a list is: null for the signed-in person's own. */
const ownerOf = (list: TaskList) => (sharedWithMe(list) ? (list.owner ?? "").toLowerCase() : null);

/**
 * The lists a task in `current` can move to: the same owner's (tasks do not change hands),
 * and only those the person may add to.
 */
export function movableLists(lists: readonly TaskList[], current: string): TaskList[] {
  const from = findList(lists, current);
  if (!from) return lists.filter((list) => !sharedWithMe(list));
  return lists.filter((list) => canEdit(list) && ownerOf(list) === ownerOf(from));
}

/** The list as GET /api/lists has it, and whether its tasks may be changed here. */
export function useListAccess(name: string | null): { list: TaskList | undefined; editable: boolean } {
  const lists = useLists();
  const list = findList(lists.data, name);
  return { list, editable: canEdit(list) };
}
