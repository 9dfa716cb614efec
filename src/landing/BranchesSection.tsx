import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '../ui/Button.tsx';
import { truncateDescription, type Branch } from '../../machines/branches.ts';
import { SECTION_IDS, useLocale, useOpenModal } from '../shell/navigation.ts';
import { Section } from './Section.tsx';

/** The description is sanitised HTML; the card shows its text only. */
function plainText(html: string): string {
  const text = new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '';
  return text.replace(/\s+/g, ' ').trim();
}

function BranchCard({ branch, eager }: { branch: Branch; eager: boolean }) {
  const { t } = useLingui();
  const locale = useLocale();
  const openModal = useOpenModal();
  const active = branch.active_with_smart_lock;
  const branchName = branch.name;
  const description = truncateDescription(plainText(branch.descriptions_data[locale] ?? ''));
  const image = (
    <img
      src={branch.image}
      alt={branch.name}
      width="640"
      height="480"
      loading={eager ? 'eager' : 'lazy'}
      decoding="async"
      className="branch-card__image"
    />
  );
  return (
    <li className={active ? 'branch-card' : 'branch-card branch-card--soon'} aria-label={branch.name}>
      <div className="branch-card__media">
        {active ? (
          <button
            type="button"
            className="branch-card__image-button"
            aria-label={t`Ver informação de ${branchName}`}
            onClick={() => openModal({ modal: 'booking', tab: 'branchInformation', branchId: branch.id })}
          >
            {image}
          </button>
        ) : (
          <>
            {image}
            <div className="branch-card__overlay">
              <span>
                <Trans>Brevemente</Trans>
              </span>
            </div>
          </>
        )}
      </div>
      <div className="branch-card__body">
        <h3 className="branch-card__name">{branch.name}</h3>
        <p className="branch-card__location">{branch.location}</p>
        <p className="branch-card__description">{description}</p>
        {active && (
          <Button
            fullWidth
            className="branch-card__button"
            onClick={() => openModal({ modal: 'booking', tab: 'bookSessions', branchId: branch.id })}
          >
            <Trans>Reservar em {branchName}</Trans>
          </Button>
        )}
      </div>
    </li>
  );
}

export function BranchesSection({ branches, showHeader }: { branches: Branch[]; showHeader: boolean }) {
  return (
    <Section
      id={SECTION_IDS.branches}
      eyebrow={showHeader ? <Trans>Os nossos espaços</Trans> : undefined}
      title={showHeader ? <Trans>Escolha o seu ginásio</Trans> : undefined}
      intro={
        showHeader ? (
          <Trans>Cada espaço é reservado por inteiro: só entra quem estiver consigo.</Trans>
        ) : undefined
      }
    >
      <ul className="branch-grid">
        {branches.map((branch, index) => (
          <BranchCard key={branch.id} branch={branch} eager={index < 2} />
        ))}
      </ul>
    </Section>
  );
}
