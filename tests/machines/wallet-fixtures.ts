import type {
  CreditPack,
  GiftVoucher,
  Wallet,
  WalletLot,
  WalletView,
} from '../../machines/wallet.machine.ts';

// A member's wallet, the packs on sale and the gift vouchers bought, as the server answers them (issue 31), for the
// wallet's tests.

export const TEN_HOURS: CreditPack = {
  id: 3,
  name: 'Dez horas',
  unit: 'hours',
  credit: 10,
  price_eur: 90,
  validity_days: 180,
  scope: { branches: null, weekdays: null, from_time: null, to_time: null },
};

export const MORNINGS: CreditPack = {
  id: 4,
  name: 'Manhãs',
  unit: 'eur',
  credit: 50,
  price_eur: 45,
  validity_days: 1,
  scope: {
    branches: [
      { id: 1, name: 'Avenidas Novas' },
      { id: 2, name: 'Campo de Ourique' },
    ],
    weekdays: [1, 2, 3, 4, 5, 7],
    from_time: '07:00',
    to_time: '12:00',
  },
};

export const WALLET: Wallet = {
  lots: [
    {
      id: 21,
      name: 'Dez horas',
      unit: 'hours',
      initial: 10,
      remaining: 2.5,
      bought_at: '2026-11-02T10:00:00Z',
      expires_at: '2027-05-01T10:00:00Z',
      expired: false,
      scope: TEN_HOURS.scope,
    },
    {
      id: 20,
      name: 'Manhãs',
      unit: 'eur',
      initial: 50,
      remaining: 0,
      bought_at: '2026-01-10T10:00:00Z',
      expires_at: '2026-01-11T10:00:00Z',
      expired: true,
      scope: MORNINGS.scope,
    },
  ],
  movements: [
    {
      id: 5,
      lot_id: 21,
      kind: 'release',
      amount: 1,
      unit: 'hours',
      value_eur: 20,
      booking_id: 42,
      at: '2026-11-20T09:00:00Z',
    },
    {
      id: 4,
      lot_id: 21,
      kind: 'return',
      amount: 0.5,
      unit: 'hours',
      value_eur: 10,
      booking_id: 41,
      at: '2026-11-15T09:00:00Z',
    },
    {
      id: 3,
      lot_id: 21,
      kind: 'spend',
      amount: 9,
      unit: 'hours',
      value_eur: 180,
      booking_id: 41,
      at: '2026-11-03T09:00:00Z',
    },
    {
      id: 2,
      lot_id: 21,
      kind: 'grant',
      amount: 10,
      unit: 'hours',
      value_eur: 90,
      booking_id: null,
      at: '2026-11-02T10:00:00Z',
    },
    {
      id: 1,
      lot_id: 20,
      kind: 'expire',
      amount: 50,
      unit: 'eur',
      value_eur: 50,
      booking_id: null,
      at: '2026-01-11T10:00:00Z',
    },
  ],
};

/** The gift vouchers a member bought, newest first: one in each state. */
export const GIFTS: GiftVoucher[] = [
  {
    id: 14,
    amount_eur: 30,
    recipient_name: 'Rita Lopes',
    recipient_email: 'rita@example.com',
    message: null,
    status: 'unpaid',
    code: null,
    issued_at: null,
    expires_at: null,
  },
  {
    id: 13,
    amount_eur: 25.5,
    recipient_name: 'Ana Sousa',
    recipient_email: 'ana@example.com',
    message: 'Parabéns!',
    status: 'issued',
    code: 'GIFT-7K2M-9QXA',
    issued_at: '2026-11-01T10:00:00Z',
    expires_at: '2027-11-01T10:00:00Z',
  },
  {
    id: 12,
    amount_eur: 50,
    recipient_name: 'Bruno Reis',
    recipient_email: 'bruno@example.com',
    message: null,
    status: 'redeemed',
    code: 'GIFT-AAAA-BBBB',
    issued_at: '2026-02-01T10:00:00Z',
    expires_at: '2027-02-01T10:00:00Z',
  },
  {
    id: 11,
    amount_eur: 20,
    recipient_name: 'Carla Dias',
    recipient_email: 'carla@example.com',
    message: null,
    status: 'expired',
    code: 'GIFT-CCCC-DDDD',
    issued_at: '2025-01-05T10:00:00Z',
    expires_at: '2026-01-05T10:00:00Z',
  },
];

/** The lot a redeemed voucher of 40 € becomes. */
export const REDEEMED: WalletLot = {
  id: 22,
  name: 'Vale de oferta',
  unit: 'eur',
  initial: 40,
  remaining: 40,
  bought_at: '2026-11-21T10:00:00Z',
  expires_at: '2027-10-30T10:00:00Z',
  expired: false,
  scope: { branches: null, weekdays: null, from_time: null, to_time: null },
};

export const EMPTY: WalletView = { wallet: { lots: [], movements: [] }, packs: [], vouchers: [] };
export const FULL: WalletView = { wallet: WALLET, packs: [TEN_HOURS, MORNINGS], vouchers: GIFTS };
