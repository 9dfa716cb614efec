import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/config.ts';

describe('the client configuration', () => {
  it('fills every value from its default when the environment says nothing', () => {
    expect(parseConfig({}, 'https://gym.example')).toEqual({
      companyName: 'Private Gym',
      companyNIF: '500000000',
      webMainUrl: 'https://gym.example',
      apiBaseUrl: '/api',
      contactEmail: 'info@privategym.pt',
      socialUrl: 'https://www.instagram.com/privategym.pt',
      stripePublishableKey: null,
      mixpanelToken: null,
      earlyBirdEnabled: true,
      poweredBy: { name: 'Private Gym Tech', url: 'https://github.com/private-gym' },
    });
  });

  it('trims values, drops trailing slashes and treats blank values as absent', () => {
    const config = parseConfig(
      {
        VITE_COMPANY_NAME: '  Ginásio Privado ',
        VITE_WEB_MAIN_URL: 'https://www.example.pt//',
        VITE_API_BASE_URL: 'https://api.example.pt/api/',
        VITE_STRIPE_PUBLISHABLE_KEY: ' pk_test_1 ',
        VITE_MIXPANEL_TOKEN: '   ',
        VITE_EARLY_BIRD: 'false',
        VITE_CONTACT_EMAIL: '',
      },
      'http://localhost',
    );
    expect(config).toMatchObject({
      companyName: 'Ginásio Privado',
      webMainUrl: 'https://www.example.pt',
      apiBaseUrl: 'https://api.example.pt/api',
      stripePublishableKey: 'pk_test_1',
      mixpanelToken: null,
      earlyBirdEnabled: false,
      contactEmail: 'info@privategym.pt',
    });
    expect(parseConfig({ VITE_EARLY_BIRD: true }, 'http://localhost').earlyBirdEnabled).toBe(true);
  });

  it.each([
    ['VITE_WEB_MAIN_URL', 'not a url', /VITE_WEB_MAIN_URL must be an absolute URL/],
    ['VITE_SOCIAL_URL', 'ftp://files.example', /VITE_SOCIAL_URL must be an http\(s\) URL/],
    ['VITE_EARLY_BIRD', 'yes', /VITE_EARLY_BIRD must be true or false/],
    ['VITE_CONTACT_EMAIL', 'nobody', /VITE_CONTACT_EMAIL must be an e-mail address/],
    ['VITE_COMPANY_NIF', '12345', /VITE_COMPANY_NIF must be a 9-digit Portuguese tax number/],
  ])('refuses %s=%j, naming the variable', (key, value, message) => {
    expect(() => parseConfig({ [key]: value }, 'http://localhost')).toThrow(ConfigError);
    expect(() => parseConfig({ [key]: value }, 'http://localhost')).toThrow(message);
  });
});
