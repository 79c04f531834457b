/** Settings' "Appearance": System / Light / Dark, applied at once and kept in this browser. */
import { useId } from "react";

import { setTheme, THEMES, useTheme, type Theme } from "./theme";

const LABELS: Record<Theme, string> = { system: "System", light: "Light", dark: "Dark" };

export function ThemeChoice() {
  const theme = useTheme();
  const id = useId();
  return (
    <fieldset className="settings-choices" aria-describedby={`${id}-hint`}>
      <legend className="visually-hidden">Theme</legend>
      {THEMES.map((choice) => (
        <label key={choice} className="settings-choice">
          <input
            type="radio"
            name={`${id}-theme`}
            value={choice}
            checked={theme === choice}
            onChange={() => setTheme(choice)}
          />
          {LABELS[choice]}
        </label>
      ))}
      <p id={`${id}-hint`} className="muted small settings-hint">
        System follows your device's light or dark setting. Kept in this browser.
      </p>
    </fieldset>
  );
}
