import { useState } from 'preact/hooks';
import { Refusal, request } from '../api/request';
import { saveSession } from '../api/session';
import { signedIn } from '../auth';
import { SignInDocument } from '../generated/graphql';
import { navigate } from '../router';

// Email and password to signIn; a refusal is shown in the service's words, on the field it names.

export function SignIn() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Refusal | undefined>();
  const fieldError = (field: string) => error?.fields.find((f) => f.field === field);

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const { signIn } = await request(SignInDocument, { email, password });
      saveSession({ token: signIn.token, name: signIn.viewer.name, email: signIn.viewer.email, viewerId: signIn.viewer.id });
      signedIn.set(true);
      navigate('/inbox/open', { replace: true });
    } catch (err) {
      setError(err instanceof Refusal ? err : new Refusal(String(err), 'error'));
    } finally {
      setBusy(false);
    }
  };

  const emailError = fieldError('email');
  const passwordError = fieldError('password');
  return (
    <main class="sign-in" aria-labelledby="sign-in-title">
      <form class="card" onSubmit={submit} noValidate>
        <h1 id="sign-in-title">Sign in to the staff console</h1>
        {error && (
          <p class="error" role="alert" id="sign-in-error">
            {error.message}
            {error.fields.length > 0 && ` (${error.fields.map((f) => `${f.field}: ${f.detail ?? 'check it'}`).join('; ')})`}
          </p>
        )}
        <label for="email">Email</label>
        <input
          id="email"
          name="email"
          type="email"
          autocomplete="username"
          required
          value={email}
          onInput={(e) => setEmail(e.currentTarget.value)}
          aria-invalid={emailError ? 'true' : undefined}
          aria-describedby={emailError ? 'sign-in-error' : undefined}
        />
        <label for="password">Password</label>
        <input
          id="password"
          name="password"
          type="password"
          autocomplete="current-password"
          required
          value={password}
          onInput={(e) => setPassword(e.currentTarget.value)}
          aria-invalid={passwordError ? 'true' : undefined}
          aria-describedby={passwordError ? 'sign-in-error' : undefined}
        />
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
