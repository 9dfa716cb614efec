import { createLazyRoute } from '@tanstack/react-router';
import { AdminConsole, NoSuchPage } from './AdminConsole.tsx';

export const Route = createLazyRoute('/$lang/admin')({ component: AdminConsole });
export const NotFoundRoute = createLazyRoute('/$lang/admin/$')({ component: NoSuchPage });
