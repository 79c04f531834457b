/**
 * Settings' "Access tokens": personal access tokens for scripts, MCP clients and
 * OpenAI-compatible clients. Make one (a name, read or write, an expiry), see it once with the
 * ready-to-paste settings filled in, list them, revoke one. The server keeps only a hash.
 */
import { useId, useRef, useState, type FormEvent } from "react";

import { describeError } from "../api/errors";
import {
  filledIn,
  useClientSettings,
  useMakeToken,
  useRevokeToken,
  useTokens,
  type TokenCreated,
  type TokenScope,
} from "./useAccessTokens";
import { focusOnMount } from "../ui/focusOnMount";

const EXPIRIES: { label: string; days: number | null }[] = [
  { label: "30 days", days: 30 },
  { label: "90 days", days: 90 },
  { label: "1 year", days: 365 },
  { label: "Never", days: null },
];

const CLIENTS: { key: "claude" | "http" | "openai"; label: string; hint: string }[] = [
  {
    key: "claude",
    label: "Claude Desktop (stdio, on the server's machine)",
    hint: "Paste into claude_desktop_config.json, then restart Claude Desktop.",
  },
  {
    key: "http",
    label: "MCP clients over HTTP (Claude Code, Cursor, VS Code)",
    hint: 'Claude Code\'s .mcp.json and Cursor\'s mcp.json take it as it is; VS Code\'s mcp.json takes the "todo" entry under "servers".',
  },
  {
    key: "openai",
    label: "OpenAI-compatible clients",
    hint: "The base URL, API key and model to give a chat app made for OpenAI.",
  },
];

/** Focuses an element as it appears: the next control after the one that went away. */
function when(iso: string | null | undefined): string {
  return iso ? new Date(iso).toLocaleDateString() : "never";
}

export function AccessTokens() {
  const tokens = useTokens();
  const settings = useClientSettings();
  const make = useMakeToken();
  const revoke = useRevokeToken();
  const [name, setName] = useState("");
  const [scope, setScope] = useState<TokenScope>("write");
  const [days, setDays] = useState<number | null>(90);
  const [made, setMade] = useState<TokenCreated | null>(null);
  const [confirming, setConfirming] = useState<number | null>(null);
  // The token whose "Revoke" button gets focus back after "Keep it".
  const [keptId, setKeptId] = useState<number | null>(null);
  const nameInput = useRef<HTMLInputElement>(null);
  const [said, setSaid] = useState("");
  const id = useId();
  const failed = make.isError
    ? `Couldn't make a token. ${describeError(make.error)}`
    : revoke.isError
      ? `Couldn't revoke the token. ${describeError(revoke.error)}`
      : tokens.isError
        ? `Couldn't list your tokens. ${describeError(tokens.error)}`
        : null;

  function submit(event: FormEvent) {
    event.preventDefault();
    revoke.reset();
    make.mutate(
      { name: name.trim(), scope, expires_in_days: days },
      {
        onSuccess: (created) => {
          setMade(created);
          setName("");
          setSaid(`Token "${created.name}" made. Copy it now: it is shown only once.`);
        },
      },
    );
  }

  function revokeToken(tokenId: number, tokenName: string) {
    make.reset();
    revoke.mutate(tokenId, {
      onSuccess: () => {
        setConfirming(null);
        if (made?.id === tokenId) setMade(null);
        setSaid(`Token "${tokenName}" revoked.`);
        // Its row, and the button that had focus, are gone.
        nameInput.current?.focus();
      },
    });
  }

  async function copy(text: string, what: string) {
    if (!navigator.clipboard) return;
    await navigator.clipboard.writeText(text);
    setSaid(`${what} copied.`);
  }

  return (
    <>
      <p className="muted small">
        A token lets a script, an MCP client or an OpenAI-compatible chat app use your tasks without your
        password. A read token can look and chat but changes nothing.
      </p>
      <form className="settings-field" onSubmit={submit} aria-label="Make an access token">
        <label htmlFor={`${id}-name`}>Token name</label>
        <input
          ref={nameInput}
          id={`${id}-name`}
          className="settings-input"
          value={name}
          maxLength={100}
          required
          placeholder="e.g. Claude Desktop"
          onChange={(event) => setName(event.target.value)}
        />
        <fieldset className="settings-choices">
          <legend className="small">Access</legend>
          {(["write", "read"] as const).map((choice) => (
            <label key={choice} className="settings-choice">
              <input
                type="radio"
                name={`${id}-scope`}
                value={choice}
                checked={scope === choice}
                onChange={() => setScope(choice)}
              />
              {choice === "write" ? "Read and change" : "Read only"}
            </label>
          ))}
        </fieldset>
        <label htmlFor={`${id}-expiry`}>Expires after</label>
        <select
          id={`${id}-expiry`}
          className="settings-input"
          value={days === null ? "never" : String(days)}
          onChange={(event) => setDays(event.target.value === "never" ? null : Number(event.target.value))}
        >
          {EXPIRIES.map((expiry) => (
            <option key={expiry.label} value={expiry.days === null ? "never" : String(expiry.days)}>
              {expiry.label}
            </option>
          ))}
        </select>
        <div className="settings-actions">
          <button type="submit" className="button button-small" disabled={make.isPending || !name.trim()}>
            Make a token
          </button>
        </div>
      </form>
      {made !== null && (
        <div key={made.id} className="settings-field" role="group" aria-label="Your new token">
          <label htmlFor={`${id}-secret`}>Your new token (shown only once)</label>
          <div className="settings-copy-row">
            <input
              id={`${id}-secret`}
              className="settings-input settings-mono"
              readOnly
              ref={focusOnMount}
              value={made.token}
              onFocus={(event) => event.target.select()}
            />
            <button
              type="button"
              className="button button-small"
              aria-label="Copy the token"
              onClick={() => void copy(made.token, "Token")}
            >
              Copy
            </button>
          </div>
          {settings.data &&
            CLIENTS.map(({ key, label, hint }) => {
              const text = filledIn(settings.data[key], settings.data.token_placeholder, made.token);
              return (
                <div key={key} className="settings-field">
                  <label htmlFor={`${id}-${key}`}>{label}</label>
                  <textarea
                    id={`${id}-${key}`}
                    className="settings-input settings-mono"
                    readOnly
                    rows={Math.min(12, text.split("\n").length)}
                    value={text}
                    aria-describedby={`${id}-${key}-hint`}
                  />
                  <p id={`${id}-${key}-hint`} className="muted small">
                    {hint}
                  </p>
                  <div className="settings-actions">
                    <button
                      type="button"
                      className="button button-small"
                      aria-label={`Copy the settings for ${label}`}
                      onClick={() => void copy(text, "Settings")}
                    >
                      Copy
                    </button>
                  </div>
                </div>
              );
            })}
        </div>
      )}
      {failed && (
        <p role="alert" className="settings-problem small">
          {failed}
        </p>
      )}
      {tokens.data && tokens.data.length > 0 && (
        <ul className="settings-tokens" aria-label="Your access tokens">
          {tokens.data.map((token) => (
            <li key={token.id} className="small">
              <strong>{token.name}</strong> ({token.scope === "write" ? "read and change" : "read only"}),{" "}
              <code className="settings-mono">{token.prefix}…</code>, made {when(token.created_at)}, last used{" "}
              {when(token.last_used_at)}, expires {when(token.expires_at)}{" "}
              {confirming === token.id ? (
                <>
                  <button
                    ref={focusOnMount}
                    type="button"
                    className="button button-small"
                    disabled={revoke.isPending}
                    onClick={() => revokeToken(token.id, token.name)}
                  >
                    Revoke "{token.name}" now
                  </button>
                  <button
                    type="button"
                    className="button button-small button-ghost"
                    onClick={() => {
                      setKeptId(token.id);
                      setConfirming(null);
                    }}
                  >
                    Keep it
                  </button>
                </>
              ) : (
                <button
                  ref={keptId === token.id ? focusOnMount : undefined}
                  type="button"
                  className="button button-small button-ghost"
                  aria-label={`Revoke ${token.name}`}
                  onClick={() => {
                    setKeptId(null);
                    setConfirming(token.id);
                  }}
                >
                  Revoke
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <p className="visually-hidden" aria-live="polite">
        {said}
      </p>
    </>
  );
}
