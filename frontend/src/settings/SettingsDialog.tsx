/**
 * Settings, opened from the header's gear: the account-level things that used to sit at the
 * bottom of the task panel, and the theme. A native modal <dialog> (showModal): the browser
 * traps focus in it, closes it on Escape and gives focus back to the gear. Mounted only while
 * open, so its queries (the calendar feed's state) run only then.
 */
import { useId, type ReactNode } from "react";

import { ReminderSettings } from "../reminders/ReminderSettings";
import { CloseIcon, LogoutIcon } from "../ui/icons";
import { useModalDialog } from "../ui/useModalDialog";
import { CalendarFeed } from "./CalendarFeed";
import { AccessTokens } from "./AccessTokens";
import { McpConnection } from "./McpConnection";
import { ThemeChoice } from "./ThemeChoice";
import "./settings.css";

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="settings-section" aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      {children}
    </section>
  );
}

interface Props {
  email: string;
  onLogOut: () => void;
  /** After the dialog has closed (Close, Escape or a click on the backdrop): unmount it. */
  onClose: () => void;
}

export function SettingsDialog({ email, onLogOut, onClose }: Props) {
  const { dialog, backdrop } = useModalDialog();
  const titleId = useId();

  return (
    <dialog
      ref={dialog}
      className="settings-dialog"
      aria-labelledby={titleId}
      onClose={onClose}
      {...backdrop}
    >
      <div className="settings-frame">
        <div className="settings-header">
          <h2 id={titleId} className="settings-title">
            Settings
          </h2>
          <button type="button" className="icon-button" onClick={() => dialog.current?.close()}>
            <CloseIcon />
            <span className="visually-hidden">Close</span>
          </button>
        </div>
        <div className="settings-body">
          <Section title="Appearance">
            <ThemeChoice />
          </Section>
          <Section title="Notifications">
            <ReminderSettings />
          </Section>
          <Section title="Calendar feed">
            <CalendarFeed />
          </Section>
          <Section title="Connections">
            <McpConnection />
            <h4 className="settings-subheading">Access tokens</h4>
            <AccessTokens />
          </Section>
          <Section title="Account">
            <p className="small">
              Signed in as <strong className="settings-email">{email}</strong>
            </p>
            <div className="settings-actions">
              <button type="button" className="button button-small" onClick={onLogOut}>
                <LogoutIcon />
                Log out
              </button>
            </div>
          </Section>
        </div>
      </div>
    </dialog>
  );
}
