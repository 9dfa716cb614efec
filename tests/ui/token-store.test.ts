// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { adminTokenStore } from '../../src/admin/tokenStore.ts';
import { localStorageTokenStore } from '../../src/app/tokenStore.ts';

describe('the token stores', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    window.localStorage.clear();
  });

  it('keep the member’s and the operator’s tokens under keys of their own', () => {
    const member = localStorageTokenStore('token');
    member.write('member-token');
    adminTokenStore.write('operator-token');
    expect(member.read()).toBe('member-token');
    expect(adminTokenStore.read()).toBe('operator-token');
    adminTokenStore.clear();
    expect(adminTokenStore.read()).toBeNull();
    expect(member.read()).toBe('member-token');
  });

  it('answer no token and keep working when storage refuses (private modes, a full quota)', () => {
    const refuse = () => {
      throw new DOMException('denied', 'SecurityError');
    };
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(refuse);
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(refuse);
    vi.spyOn(Storage.prototype, 'removeItem').mockImplementation(refuse);
    const store = localStorageTokenStore('token');
    expect(() => store.write('a-token')).not.toThrow();
    expect(store.read()).toBeNull();
    expect(() => store.clear()).not.toThrow();
  });
});
