/** A ref callback that focuses its element once it is in the page (what a confirmation's
 * first button, or a new item, gets so the keyboard lands on it). */
export function focusOnMount(element: HTMLElement | null) {
  element?.focus();
}
