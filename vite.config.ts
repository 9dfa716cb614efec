import babel from '@rolldown/plugin-babel';
import { lingui, linguiTransformerBabelPreset } from '@lingui/vite-plugin';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// With Vite 8 the React plugin no longer runs Babel, so Lingui's macros go through @rolldown/plugin-babel.
export default defineConfig({
  plugins: [react(), babel({ presets: [linguiTransformerBabelPreset()] }), lingui()],
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:3000' },
  },
  build: {
    outDir: 'dist',
    sourcemap: true,
  },
});
