import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ApiFailure, whenSessionLost } from './shared/api/client';
import { forgetSession } from './session/api/session';
import { createConsoleRouter } from './router';
import './styles.css';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A refused or missing resource will not change by asking again.
      retry: (failures, error) =>
        failures < 2 && !(error instanceof ApiFailure && error.status < 500),
      refetchOnWindowFocus: false,
    },
  },
});
const router = createConsoleRouter(queryClient);

// The session expired or was ended elsewhere: back to sign-in, then to this page.
whenSessionLost(() => {
  forgetSession(queryClient);
  const here = window.location.pathname + window.location.search;
  if (!window.location.pathname.startsWith('/console/sign-in')) {
    void router.navigate({ to: '/sign-in', search: { redirect: here } });
  }
});

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
