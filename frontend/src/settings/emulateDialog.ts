/**
 * For tests: jsdom has <dialog> but not showModal() or close(). This stands in for them as far
 * as the Settings dialog uses them: `open` on and off, and the `close` event. (Focus trapping,
 * Escape and the backdrop are the browser's, proven by the browser journey.)
 */
export function emulateDialog(): void {
  const dialog = HTMLDialogElement.prototype;
  if (typeof dialog.showModal === "function") return;
  dialog.showModal = function (this: HTMLDialogElement) {
    if (this.open) throw new DOMException("The dialog is already open.", "InvalidStateError");
    this.setAttribute("open", "");
  };
  dialog.close = function (this: HTMLDialogElement) {
    if (!this.open) return;
    this.removeAttribute("open");
    this.dispatchEvent(new Event("close"));
  };
}
