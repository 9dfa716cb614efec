import { useLingui } from '@lingui/react/macro';
import { useRuntime } from '../app/context.tsx';

export function SocialLink({ className }: { className?: string }) {
  const { t } = useLingui();
  const { config } = useRuntime();
  return (
    <a
      className={className ?? 'social-link'}
      href={config.socialUrl}
      target="_blank"
      rel="noopener noreferrer"
      aria-label={t`Instagram (abre num novo separador)`}
    >
      <svg
        viewBox="0 0 24 24"
        width="20"
        height="20"
        aria-hidden="true"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
      >
        <rect x="3" y="3" width="18" height="18" rx="5" />
        <circle cx="12" cy="12" r="4.2" />
        <circle cx="17.4" cy="6.6" r="1.1" fill="currentColor" stroke="none" />
      </svg>
    </a>
  );
}
