import { screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";

import { json, noContent } from "../test/fetchMock";
import { signedInServer } from "../test/fixtures";
import { renderWithClient, signInAsTester } from "../test/render";
import { AccessTokens } from "./AccessTokens";

const PLACEHOLDER = "<token>";
const SECRET = "tdc_s3cretS3cretS3cretS3cretS3cretS3cretS3cre";

function clientSettings() {
  return {
    token_placeholder: PLACEHOLDER,
    claude: {
      mcpServers: {
        todo: {
          command: "/srv/todo/.venv/bin/python",
          args: ["-m", "mcp_tools"],
          env: { MCP_USER_TOKEN: PLACEHOLDER },
        },
      },
    },
    http: {
      mcpServers: {
        todo: {
          type: "http",
          url: "https://todo.example/mcp/",
          headers: { Authorization: `Bearer ${PLACEHOLDER}` },
        },
      },
    },
    openai: { base_url: "https://todo.example/v1", api_key: PLACEHOLDER, model: "todo-assistant" },
  };
}

describe("The access tokens' controls", () => {
  beforeEach(signInAsTester);

  it("makes a token, shows it once with the settings filled in, lists it, and revokes it after asking", async () => {
    const listed: Record<string, unknown>[] = [];
    let asked: Record<string, unknown> | null = null;
    const server = signedInServer({
      "GET /api/tokens": () => json(listed),
      "GET /api/connections": () => json(clientSettings()),
      "POST /api/tokens": (call) => {
        asked = call.body as Record<string, unknown>;
        const row = {
          id: 7,
          name: asked["name"],
          scope: asked["scope"],
          prefix: SECRET.slice(0, 12),
          created_at: "2026-11-28T08:00:00Z",
          last_used_at: null,
          expires_at: null,
        };
        listed.push(row);
        return json({ ...row, token: SECRET }, 201);
      },
      "DELETE /api/tokens/7": () => {
        listed.pop();
        return noContent();
      },
    });
    const { user } = renderWithClient(<AccessTokens />);

    await user.type(screen.getByLabelText("Token name"), "Claude Desktop");
    await user.click(screen.getByLabelText("Read only"));
    await user.selectOptions(screen.getByLabelText("Expires after"), "Never");
    await user.click(screen.getByRole("button", { name: "Make a token" }));

    const secret = await screen.findByLabelText("Your new token (shown only once)");
    expect(secret).toHaveValue(SECRET);
    expect(secret).toHaveFocus();
    expect(asked).toEqual({ name: "Claude Desktop", scope: "read", expires_in_days: null });
    const claude = screen.getByLabelText("Claude Desktop (stdio, on the server's machine)");
    expect((claude as HTMLTextAreaElement).value).toContain(`"MCP_USER_TOKEN": "${SECRET}"`);
    const http = screen.getByLabelText("MCP clients over HTTP (Claude Code, Cursor, VS Code)");
    expect((http as HTMLTextAreaElement).value).toContain(`"Authorization": "Bearer ${SECRET}"`);
    expect((http as HTMLTextAreaElement).value).not.toContain(PLACEHOLDER);
    expect(http).toHaveAccessibleDescription(/VS Code's mcp.json takes the "todo" entry under "servers"/);

    const list = await screen.findByRole("list", { name: "Your access tokens" });
    expect(within(list).getByText("Claude Desktop")).toBeInTheDocument();
    expect(within(list).getByText(/read only/)).toBeInTheDocument();

    await user.click(within(list).getByRole("button", { name: "Revoke Claude Desktop" }));
    expect(within(list).getByRole("button", { name: 'Revoke "Claude Desktop" now' })).toHaveFocus();
    await user.click(within(list).getByRole("button", { name: "Keep it" }));
    expect(within(list).getByRole("button", { name: "Revoke Claude Desktop" })).toHaveFocus();
    await user.click(within(list).getByRole("button", { name: "Revoke Claude Desktop" }));
    expect(server.callsTo("DELETE /api/tokens/7")).toHaveLength(0);
    await user.click(within(list).getByRole("button", { name: 'Revoke "Claude Desktop" now' }));
    await vi.waitFor(() => expect(server.callsTo("DELETE /api/tokens/7")).toHaveLength(1));
    await vi.waitFor(() => expect(screen.queryByRole("list", { name: "Your access tokens" })).toBeNull());
    expect(screen.queryByLabelText("Your new token (shown only once)")).toBeNull();
    expect(screen.getByLabelText("Token name")).toHaveFocus();
  });

  it("says so when a token cannot be made", async () => {
    signedInServer({
      "GET /api/tokens": () => json([]),
      "GET /api/connections": () => json(clientSettings()),
      "POST /api/tokens": () =>
        json({ detail: "An account may hold at most 50 tokens; revoke one first" }, 409),
    });
    const { user } = renderWithClient(<AccessTokens />);
    await user.type(screen.getByLabelText("Token name"), "one too many");
    await user.click(screen.getByRole("button", { name: "Make a token" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("at most 50 tokens");
  });
});
