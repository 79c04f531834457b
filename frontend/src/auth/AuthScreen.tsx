/** Log in or sign up: one form, two modes. */
import { useId, useState, type FormEvent } from "react";

import { OFFLINE_MESSAGE, useBrowserOnline } from "../api/connectivity";
import { describeError } from "../api/errors";
import { Logo } from "../ui/Logo";
import { hasSignedInBefore } from "./session";
import { useAuthenticate, type AuthMode } from "./useAuth";
import "./auth.css";

const MIN_PASSWORD = 8;

function localProblem(mode: AuthMode, email: string, password: string): string | null {
  if (!email.trim() || !password) return "Enter your email and password.";
  if (mode === "signup" && !/^\S+@\S+\.\S+$/.test(email.trim())) return "Enter a valid email address.";
  if (mode === "signup" && password.length < MIN_PASSWORD) {
    return `Password must be at least ${MIN_PASSWORD} characters.`;
  }
  return null;
}

interface Props {
  notice?: string | null;
}

export function AuthScreen({ notice = null }: Props) {
  const online = useBrowserOnline();
  // A first visit signs up; whoever has signed in here before (or was just signed out) logs in.
  const [mode, setMode] = useState<AuthMode>(() =>
    notice !== null || hasSignedInBefore() ? "login" : "signup",
  );
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const authenticate = useAuthenticate(mode);
  const ids = { email: useId(), password: useId(), hint: useId(), heading: useId() };

  const isLogin = mode === "login";
  const error = problem ?? (authenticate.error ? describeError(authenticate.error) : null);
  const message = error ?? (authenticate.isIdle ? notice : null);

  function switchMode() {
    setMode(isLogin ? "signup" : "login");
    setProblem(null);
    authenticate.reset();
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (authenticate.isPending) return;
    const local = localProblem(mode, email, password);
    setProblem(local);
    if (local) return;
    authenticate.mutate({ email: email.trim(), password });
  }

  return (
    <main className="auth">
      {!online && (
        <p role="alert" className="banner auth-offline">
          <span>{OFFLINE_MESSAGE}</span>
        </p>
      )}
      <div className="auth-card">
        <div className="auth-brand">
          <Logo />
          <span className="brand-name">Todo Chatbot</span>
        </div>
        <h1 id={ids.heading} className="auth-title">
          {isLogin ? "Welcome back" : "Create your account"}
        </h1>
        <p className="auth-subtitle">
          {isLogin ? "Log in to pick up where you left off." : "Manage your todo list just by chatting."}
        </p>
        <form className="auth-form" onSubmit={submit} noValidate aria-labelledby={ids.heading}>
          <div className="field">
            <label htmlFor={ids.email}>Email</label>
            <input
              id={ids.email}
              type="email"
              inputMode="email"
              autoComplete="email"
              autoCapitalize="none"
              spellCheck={false}
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              maxLength={320}
              required
            />
          </div>
          <div className="field">
            <label htmlFor={ids.password}>Password</label>
            <input
              id={ids.password}
              type="password"
              autoComplete={isLogin ? "current-password" : "new-password"}
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              maxLength={128}
              aria-describedby={isLogin ? undefined : ids.hint}
              required
            />
            {!isLogin && (
              <p id={ids.hint} className="field-hint">
                At least {MIN_PASSWORD} characters, and not one people often use: a few unrelated words work
                well (“violet canoe oatmeal”).
              </p>
            )}
          </div>
          {message && (
            <p role="alert" className={error ? "form-error" : "form-notice"}>
              {message}
            </p>
          )}
          <button
            type="submit"
            className="button button-primary button-block"
            // aria-disabled, not disabled: a disabled button drops keyboard focus to the page,
            // so after a refused login focus would be nowhere.
            aria-disabled={authenticate.isPending}
          >
            {isLogin ? "Log in" : "Sign up"}
          </button>
        </form>
        <p className="auth-switch">
          {isLogin ? "New here?" : "Already signed up?"}{" "}
          <button type="button" className="link-button" onClick={switchMode}>
            {isLogin ? "Create an account" : "I already have an account"}
          </button>
        </p>
      </div>
    </main>
  );
}
