/**
 * Settings' "Connections": how an MCP client reaches this account's tasks over streamable
 * HTTP (`/mcp/` with a personal access token, made in AccessTokens below it, which also gives the
 * stdio server's settings for Claude Desktop).
 */
import { useState } from "react";

export function McpConnection() {
  const endpoint = `${window.location.origin}/mcp/`;
  const [said, setSaid] = useState("");

  async function copy() {
    if (!navigator.clipboard) return;
    await navigator.clipboard.writeText(endpoint);
    setSaid("MCP endpoint copied.");
  }

  return (
    <>
      <p className="muted small">
        Assistants and editors that speak the Model Context Protocol (MCP) can read and change your tasks
        through this address, using the streamable HTTP transport:
      </p>
      <div className="settings-copy-row">
        <input
          className="settings-input settings-mono"
          readOnly
          value={endpoint}
          aria-label="MCP endpoint"
          onFocus={(event) => event.target.select()}
        />
        <button
          type="button"
          className="button button-small"
          aria-label="Copy the MCP endpoint"
          onClick={() => void copy()}
        >
          Copy
        </button>
      </div>
      <p className="small">
        Send <code className="settings-mono">Authorization: Bearer &lt;token&gt;</code> with each request,
        where the token is an access token made below (ready-to-paste settings come with it).
      </p>
      <p className="muted small">
        A desktop client that starts a local server over stdio (Claude Desktop) gets its settings with the
        token too; more in "Connect an MCP client" in the project's README.
      </p>
      <p className="visually-hidden" aria-live="polite">
        {said}
      </p>
    </>
  );
}
