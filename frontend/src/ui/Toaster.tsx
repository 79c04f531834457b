/** Where toasts appear: bottom corner, announced as alerts. */
import { CloseIcon } from "./icons";
import { dismissToast, useToasts } from "./toasts";
import "./toasts.css";

export function Toaster() {
  const toasts = useToasts();
  if (toasts.length === 0) return null;
  return (
    <div className="toaster">
      {toasts.map((toast) => (
        <div key={toast.id} role="alert" className="toast">
          <span>{toast.text}</span>
          <button
            type="button"
            className="icon-button"
            aria-label="Dismiss notification"
            onClick={() => dismissToast(toast.id)}
          >
            <CloseIcon />
          </button>
        </div>
      ))}
    </div>
  );
}
