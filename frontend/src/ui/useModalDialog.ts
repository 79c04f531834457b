import { useEffect, useRef, type MouseEvent, type PointerEvent } from "react";

/**
 * A native `<dialog>` shown modal once mounted, closed by a click on its backdrop. The
 * content fills the dialog's box, so the dialog itself is hit only on its backdrop; a press
 * that starts inside (selecting text) and ends outside is no click outside.
 */
export function useModalDialog() {
  const dialog = useRef<HTMLDialogElement>(null);
  const pressedOutside = useRef(false);

  useEffect(() => {
    const element = dialog.current;
    // Once: StrictMode runs this twice, and a second showModal() on an open dialog throws.
    if (element && !element.open) element.showModal();
  }, []);

  return {
    dialog,
    backdrop: {
      onPointerDown: (event: PointerEvent<HTMLDialogElement>) => {
        pressedOutside.current = event.target === event.currentTarget;
      },
      onClick: (event: MouseEvent<HTMLDialogElement>) => {
        if (pressedOutside.current && event.target === event.currentTarget) event.currentTarget.close();
      },
    },
  };
}
