import { describe, expect, it } from 'vitest';
import { authModalSearch, sameSearch } from '../../machines/authModal.search.ts';

const active = (context: Partial<Parameters<typeof authModalSearch>[1]['context']> = {}) => ({
  status: 'active',
  value: {},
  context: { resetToken: null, verifyLink: null, ...context },
});

describe('the auth modal’s URL', () => {
  it('drops its own parameters after a login and keeps the booking, payment and account ones', () => {
    const next = authModalSearch(
      {
        auth_tab: 'login',
        booking_tab: 'bookSessions',
        booking_branch_id: 2,
        booking_date: '2026-12-01',
        stripe_session_id: 'cs_local_1',
        account_tab: 'profile',
      },
      { status: 'done', value: 'authenticated', context: { resetToken: null, verifyLink: null } },
      null,
    );
    expect(next).toEqual({
      booking_tab: 'bookSessions',
      booking_branch_id: 2,
      booking_date: '2026-12-01',
      stripe_session_id: 'cs_local_1',
      account_tab: 'profile',
    });
  });

  it('drops the account tab too when the login is dismissed', () => {
    const next = authModalSearch(
      { auth_tab: 'login', account_tab: 'profile', booking_tab: 'bookSessions', booking_branch_id: 1 },
      { status: 'done', value: 'closed', context: { resetToken: null, verifyLink: null } },
      null,
    );
    expect(next).toEqual({ booking_tab: 'bookSessions', booking_branch_id: 1 });
  });

  it('names the view, keeps the reset token only on Reset password and the link only on Verify', () => {
    const link = { email: 'rita@example.pt', code: '123456' };
    expect(authModalSearch({ reset_token: 't' }, active({ resetToken: 't' }), 'resetPassword')).toEqual({
      auth_tab: 'resetPassword',
      reset_token: 't',
    });
    expect(authModalSearch({ reset_token: 't' }, active({ resetToken: null }), 'login')).toEqual({
      auth_tab: 'login',
    });
    expect(
      authModalSearch(
        { verify_email: link.email, verify_email_code: '123456' },
        active({ verifyLink: link }),
        'verify',
      ),
    ).toEqual({ auth_tab: 'verify', verify_email: link.email, verify_email_code: '123456' });
    expect(
      authModalSearch(
        { auth_tab: 'verify', verify_email: link.email, verify_email_code: '1' },
        active(),
        'login',
      ),
    ).toEqual({ auth_tab: 'login' });
  });

  it('leaves the URL alone while the token is checked', () => {
    const search = { auth_tab: 'login' as const, booking_tab: 'bookSessions' as const };
    expect(authModalSearch(search, active(), null)).toBe(search);
  });

  it('compares searches by their values', () => {
    expect(sameSearch({ auth_tab: 'login' }, { auth_tab: 'login' })).toBe(true);
    expect(sameSearch({ auth_tab: 'login' }, { auth_tab: 'login', account_tab: 'profile' })).toBe(false);
  });
});
