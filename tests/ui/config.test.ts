import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/config.ts';

describe('the client configuration', () => {
  it('fills every value from its default when the environment says nothing', () => {
    expect(parseConfig({}, 'https://gym.example')).toEqual({
      webMainUrl: 'https://gym.example',
      apiBaseUrl: '/api',
      stripePublishableKey: null,
      mixpanelToken: null,
      earlyBirdEnabled: true,
      poweredBy: { name: 'Private Gym Tech', url: 'https://github.com/private-gym' },
    });
  });

  it('trims values, drops trailing slashes and treats blank values as absent', () => {
    const config = parseConfig(
      {
        VITE_WEB_MAIN_URL: 'https://www.example.pt//',
        VITE_API_BASE_URL: 'https://api.example.pt/api/',
        VITE_STRIPE_PUBLISHABLE_KEY: ' pk_test_1 ',
        VITE_MIXPANEL_TOKEN: '   ',
        VITE_EARLY_BIRD: 'false',
        VITE_POWERED_BY_NAME: '',
      },
      'http://localhost',
    );
    expect(config).toMatchObject({
      webMainUrl: 'https://www.example.pt',
      apiBaseUrl: 'https://api.example.pt/api',
      stripePublishableKey: 'pk_test_1',
      mixpanelToken: null,
      earlyBirdEnabled: false,
      poweredBy: { name: 'Private Gym Tech', url: 'https://github.com/private-gym' },
    });
    expect(parseConfig({ VITE_EARLY_BIRD: true }, 'http://localhost').earlyBirdEnabled).toBe(true);
  });

  it.each([
    ['VITE_WEB_MAIN_URL', 'not a url', /VITE_WEB_MAIN_URL must be an absolute URL/],
    ['VITE_POWERED_BY_URL', 'ftp://files.example', /VITE_POWERED_BY_URL must be an http\(s\) URL/],
    ['VITE_EARLY_BIRD', 'yes', /VITE_EARLY_BIRD must be true or false/],
  ])('refuses %s=%j, naming the variable', (key, value, message) => {
    expect(() => parseConfig({ [key]: value }, 'http://localhost')).toThrow(ConfigError);
    expect(() => parseConfig({ [key]: value }, 'http://localhost')).toThrow(message);
  });

  it('holds no business fact: the company’s name, tax number, contact and social link are the server’s', () => {
    const config = parseConfig(
      { VITE_COMPANY_NAME: 'Baked', VITE_COMPANY_NIF: '500000000', VITE_CONTACT_EMAIL: 'a@b.example' },
      'http://localhost',
    );
    expect(JSON.stringify(config)).not.toMatch(/Baked|500000000|a@b\.example|instagram/);
  });
});
