/** The member the session's look-ups answer (the contract's User). */
export const MEMBER = {
  email: 'rita@example.pt',
  phone_number: '+351912345678',
  first_name: 'Rita',
  last_name: 'Lopes',
  agree_newsletter: false,
  distinct_id: 'd-1',
  email_verified: true,
  phone_verified: true,
  locale: 'pt',
  tax_id: null,
  offered_coupon: null,
};
