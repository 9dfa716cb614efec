/**
 * The console's pages in its navigation: their path segment and whether only an owner sees them (issue 18: staff
 * do not see money matters). The routes refuse those pages to staff (`beforeLoad` in src/router.tsx).
 */
export const SECTIONS = [
  { path: '', ownerOnly: false },
  { path: 'bookings', ownerOnly: false },
  { path: 'approvals', ownerOnly: false },
  { path: 'doors', ownerOnly: false },
  { path: 'closures', ownerOnly: false },
  { path: 'broadcasts', ownerOnly: false },
  { path: 'members', ownerOnly: false },
  { path: 'branches', ownerOnly: false },
  { path: 'prices', ownerOnly: true },
  { path: 'coupons', ownerOnly: true },
  { path: 'credit-packs', ownerOnly: true },
  { path: 'gift-vouchers', ownerOnly: true },
  { path: 'refund-policy', ownerOnly: true },
  { path: 'money', ownerOnly: true },
  { path: 'documents', ownerOnly: true },
  { path: 'audit', ownerOnly: false },
  { path: 'operators', ownerOnly: true },
] as const;

export type SectionPath = (typeof SECTIONS)[number]['path'];
