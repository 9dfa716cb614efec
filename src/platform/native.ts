import { Capacitor } from '@capacitor/core';

/** True inside the Capacitor app (the native wrapper); decided once, before the first render. */
export const isNative: boolean = Capacitor.isNativePlatform();
