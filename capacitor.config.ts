import type { CapacitorConfig } from '@capacitor/cli';

// The native app wraps the same build (dist/). `npm run cap:sync` copies it into the native project;
// the app calls the API at VITE_API_BASE_URL, which a native build must set to the public API address.
const config: CapacitorConfig = {
  appId: 'pt.privategym.app',
  appName: 'Private Gym',
  webDir: 'dist',
  backgroundColor: '#050506',
  android: {
    allowMixedContent: false,
  },
  ios: {
    contentInset: 'never',
  },
};

export default config;
