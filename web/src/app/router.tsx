import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { ADMIN_AREAS } from './admin/areas';
import { NotFound } from './components/NotFound';
import { RouteError } from './components/RouteError';

/**
 * The application's routes, at Metabase's paths (the server answers app.html at each: src/modules/web-pages). Every
 * area is a lazily loaded chunk (sign-in loads only the sign-in page), every route has an error boundary (an error
 * shows in place of the page, the frame around it stays).
 */
export const routes: RouteObject[] = [
  {
    errorElement: <RouteError />,
    children: [
      { path: 'auth/login', errorElement: <RouteError />, lazy: async () => ({ Component: (await import('./auth/LoginPage')).LoginPage }) },
      { path: 'setup', errorElement: <RouteError />, lazy: async () => ({ Component: (await import('./setup/SetupPage')).SetupPage }) },
      {
        // The signed-in frame: header, navigation, the page.
        lazy: async () => ({ Component: (await import('./shell/AppLayout')).AppLayout }),
        errorElement: <RouteError />,
        children: [
          { index: true, errorElement: <RouteError />, lazy: async () => ({ Component: (await import('./home/HomePage')).HomePage }) },
          {
            path: 'account/*',
            errorElement: <RouteError />,
            lazy: async () => ({ Component: (await import('./account/AccountPage')).AccountPage }),
          },
          {
            path: 'admin',
            errorElement: <RouteError />,
            lazy: async () => ({ Component: (await import('./admin/AdminLayout')).AdminLayout }),
            children: [
              { index: true, element: <Navigate to="settings" replace /> },
              ...ADMIN_AREAS.map((area): RouteObject => ({
                path: `${area.path}/*`,
                errorElement: <RouteError />,
                lazy: async () => ({ Component: (await area.load()).default }),
              })),
            ],
          },
          {
            path: 'collection/:slug',
            errorElement: <RouteError />,
            lazy: async () => ({ Component: (await import('./collections/CollectionPage')).CollectionPage }),
          },
          // A question, a model and a metric are the same page (question/QuestionPage reads which from the path).
          ...['question/*', 'model/*', 'metric/*'].map((path): RouteObject => ({
            path,
            errorElement: <RouteError />,
            lazy: async () => ({ Component: (await import('./question/QuestionPage')).QuestionPage }),
          })),
          {
            path: 'dashboard/*',
            errorElement: <RouteError />,
            lazy: async () => ({ Component: (await import('./dashboards/DashboardPage')).DashboardPage }),
          },
          {
            // X-rays: the application's path after /auto/dashboard/ is the API's (xray/XrayPage).
            path: 'auto/dashboard/*',
            errorElement: <RouteError />,
            lazy: async () => ({ Component: (await import('./xray/XrayPage')).XrayPage }),
          },
          {
            path: 'search',
            errorElement: <RouteError />,
            lazy: async () => ({ Component: (await import('./search/SearchPage')).SearchPage }),
          },
          {
            path: 'browse/*',
            errorElement: <RouteError />,
            lazy: async () => ({ Component: (await import('./browse/BrowsePage')).BrowsePage }),
          },
          {
            path: 'trash',
            errorElement: <RouteError />,
            lazy: async () => ({ Component: (await import('./collections/TrashPage')).TrashPage }),
          },
          { path: '*', element: <NotFound /> },
        ],
      },
    ],
  },
];

export const router = createBrowserRouter(routes);
