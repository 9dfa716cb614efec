import { createLazyRoute } from '@tanstack/react-router';
import { Rights } from './Rights.tsx';

export const Route = createLazyRoute('/$lang/rights')({ component: Rights });
