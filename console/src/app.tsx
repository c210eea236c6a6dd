import { useEffect } from 'preact/hooks';
import { useStore } from './api/store';
import { signedIn } from './auth';
import { navigate, path, route } from './router';
import { SignIn } from './screens/sign-in';
import { Shell } from './ui/shell';

// The console: the sign-in screen without a session, the shell with its screens with one.

export function App() {
  const current = route(useStore(path));
  const session = useStore(signedIn);
  useEffect(() => {
    if (!session && current.screen !== 'sign-in') navigate('/sign-in', { replace: true });
    if (session && current.screen === 'sign-in') navigate('/inbox/open', { replace: true });
  }, [session, current.screen]);
  if (!session || current.screen === 'sign-in') return <SignIn />;
  return <Shell route={current} />;
}
