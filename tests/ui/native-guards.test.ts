// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installNativeGuards } from '../../src/platform/guards.ts';

function touchEnd(): Event {
  return new Event('touchend', { cancelable: true });
}

function touchMove(fingers: number): Event {
  const event = new Event('touchmove', { cancelable: true });
  Object.defineProperty(event, 'touches', { value: { length: fingers } });
  return event;
}

describe('native guards', () => {
  let uninstall: () => void = () => {};
  afterEach(() => {
    uninstall();
    vi.useRealTimers();
  });

  it('blocks a second touch within 300 ms and lets a later one through', () => {
    let time = 1000;
    uninstall = installNativeGuards(window, () => time);
    const first = touchEnd();
    document.dispatchEvent(first);
    expect(first.defaultPrevented).toBe(false);
    time += 299;
    const second = touchEnd();
    document.dispatchEvent(second);
    expect(second.defaultPrevented).toBe(true);
    time += 301;
    const third = touchEnd();
    document.dispatchEvent(third);
    expect(third.defaultPrevented).toBe(false);
  });

  it('blocks pinch zoom (two fingers) but not one-finger scrolling', () => {
    uninstall = installNativeGuards(window);
    const pinch = touchMove(2);
    const scroll = touchMove(1);
    document.dispatchEvent(pinch);
    document.dispatchEvent(scroll);
    expect(pinch.defaultPrevented).toBe(true);
    expect(scroll.defaultPrevented).toBe(false);
  });

  it('blocks ctrl- and meta-wheel zoom but not plain wheel scrolling', () => {
    uninstall = installNativeGuards(window);
    const ctrl = new WheelEvent('wheel', { ctrlKey: true, cancelable: true });
    const meta = new WheelEvent('wheel', { metaKey: true, cancelable: true });
    const plain = new WheelEvent('wheel', { cancelable: true });
    window.dispatchEvent(ctrl);
    window.dispatchEvent(meta);
    window.dispatchEvent(plain);
    expect(ctrl.defaultPrevented).toBe(true);
    expect(meta.defaultPrevented).toBe(true);
    expect(plain.defaultPrevented).toBe(false);
  });

  it('scrolls the focused field into view 100 ms after the keyboard opens', () => {
    vi.useFakeTimers();
    uninstall = installNativeGuards(window);
    const input = document.createElement('input');
    document.body.append(input);
    input.focus();
    const scrollIntoView = vi.fn();
    input.scrollIntoView = scrollIntoView;
    window.dispatchEvent(new Event('keyboardDidShow'));
    vi.advanceTimersByTime(99);
    expect(scrollIntoView).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(scrollIntoView).toHaveBeenCalledTimes(1);
    input.remove();
  });

  it('removes every listener when uninstalled', () => {
    let time = 0;
    installNativeGuards(window, () => time)();
    document.dispatchEvent(touchEnd());
    time += 10;
    const second = touchEnd();
    document.dispatchEvent(second);
    expect(second.defaultPrevented).toBe(false);
  });
});
