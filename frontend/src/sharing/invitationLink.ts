/**
 * A link to an invitation, `/?invitation=<id>`: what an invitation email opens. The app
 * reads it once signed in (after logging in or signing up, if need be), shows that invitation
 * first, then takes it out of the address so a reload does not bring it back.
 */
const PARAM = "invitation";

export function linkedInvitation(): number | null {
  const value = new URLSearchParams(location.search).get(PARAM);
  return value !== null && /^\d{1,10}$/.test(value) ? Number(value) : null;
}

/** Take the link out of the address, keeping the rest of it. */
export function forgetInvitationLink(): void {
  const url = new URL(location.href);
  if (!url.searchParams.has(PARAM)) return;
  url.searchParams.delete(PARAM);
  history.replaceState(history.state, "", url);
}
