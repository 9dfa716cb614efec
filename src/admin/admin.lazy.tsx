import { createLazyRoute } from '@tanstack/react-router';
import { AdminConsole, NoSuchPage } from './AdminConsole.tsx';

export const Route = createLazyRoute('/$lang/admin')({ component: AdminConsole });
export const NotFoundRoute = createLazyRoute('/$lang/admin/$')({ component: NoSuchPage });

/** Each console page's lazily loaded part, by name (src/router.tsx loads them through this chunk). */
export const pages = {
  today: () => import('./pages/Today.tsx').then((module) => module.Route),
  bookings: () => import('./pages/Bookings.tsx').then((module) => module.Route),
  bookingPage: () => import('./pages/BookingPage.tsx').then((module) => module.Route),
  approvals: () => import('./pages/Approvals.tsx').then((module) => module.Route),
  members: () => import('./pages/Members.tsx').then((module) => module.Route),
  memberPageRoute: () => import('./pages/Members.tsx').then((module) => module.MemberPageRoute),
  doors: () => import('./pages/Doors.tsx').then((module) => module.Route),
  closures: () => import('./pages/Closures.tsx').then((module) => module.Route),
  broadcasts: () => import('./pages/Broadcasts.tsx').then((module) => module.Route),
  branches: () => import('./pages/Branches.tsx').then((module) => module.Route),
  branchPageRoute: () => import('./pages/Branches.tsx').then((module) => module.BranchPageRoute),
  prices: () => import('./pages/Prices.tsx').then((module) => module.Route),
  coupons: () => import('./pages/Coupons.tsx').then((module) => module.Route),
  creditPacks: () => import('./pages/CreditPacks.tsx').then((module) => module.Route),
  giftVouchers: () => import('./pages/GiftVouchers.tsx').then((module) => module.Route),
  refundPolicy: () => import('./pages/RefundPolicy.tsx').then((module) => module.Route),
  money: () => import('./pages/Money.tsx').then((module) => module.Route),
  documents: () => import('./pages/Documents.tsx').then((module) => module.Route),
  audit: () => import('./pages/Audit.tsx').then((module) => module.Route),
  operators: () => import('./pages/Operators.tsx').then((module) => module.Route),
};

export type ConsolePages = typeof pages;
