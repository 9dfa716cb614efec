import { useLingui } from '@lingui/react/macro';
import { useRuntime } from '../app/context.tsx';
import { LineIcon } from '../ui/LineIcon.tsx';

export function SocialLink({ className }: { className?: string }) {
  const { t } = useLingui();
  const { site } = useRuntime();
  if (!site.company.social_url) return null;
  return (
    <a
      className={className ?? 'social-link'}
      href={site.company.social_url}
      target="_blank"
      rel="noopener noreferrer"
      aria-label={t`Instagram (abre num novo separador)`}
    >
      <LineIcon size={20}>
        <rect x="3" y="3" width="18" height="18" rx="5" />
        <circle cx="12" cy="12" r="4.2" />
        <circle cx="17.4" cy="6.6" r="1.1" fill="currentColor" stroke="none" />
      </LineIcon>
    </a>
  );
}
