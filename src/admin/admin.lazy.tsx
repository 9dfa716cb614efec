import { createLazyRoute } from '@tanstack/react-router';
import { AdminConsole } from './AdminConsole.tsx';

export const Route = createLazyRoute('/$lang/admin')({ component: AdminConsole });
export const PageRoute = createLazyRoute('/$lang/admin/$')({ component: AdminConsole });
