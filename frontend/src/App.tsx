/** Logged out: the auth screen. Logged in: the app. */
import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";

import { AuthScreen } from "./auth/AuthScreen";
import { forgetConversationInUrl } from "./conversations/useOpenConversation";
import { useSession, type Session } from "./auth/session";
import { useMe } from "./auth/useAuth";
import { Logo } from "./ui/Logo";
import { AppShell } from "./ui/AppShell";
import { clearToasts } from "./ui/toasts";

/** Check the stored token once before loading anything else, so a stale one costs one request. */
function SignedIn({ session }: { session: Session }) {
  const me = useMe();
  if (me.isPending) {
    return (
      <div className="splash" aria-busy="true">
        <Logo size={40} />
        <span className="visually-hidden">Loading…</span>
      </div>
    );
  }
  return <AppShell email={me.data?.email ?? session.email} />;
}

export function App() {
  const { session, notice } = useSession();
  const queryClient = useQueryClient();

  // One user's data must never show up for the next one.
  useEffect(() => {
    if (!session) {
      queryClient.clear();
      clearToasts();
      forgetConversationInUrl();
    }
  }, [session, queryClient]);

  return session ? <SignedIn key={session.token} session={session} /> : <AuthScreen notice={notice} />;
}
