import { Trans } from '@lingui/react/macro';
import { Button } from '../ui/Button.tsx';
import { priceRange } from '../../machines/branches.ts';
import { useBranches } from '../app/context.tsx';
import { formatEuros } from '../i18n/format.ts';
import { SECTION_IDS, useGoToSection, useLocale } from '../shell/navigation.ts';
import { Section } from './Section.tsx';

export function PricingSection() {
  const { branches } = useBranches();
  const locale = useLocale();
  const goToSection = useGoToSection();
  const range = priceRange(branches);
  if (!range) return null;
  const minPrice = formatEuros(range.min, locale);
  const maxPrice = formatEuros(range.max, locale);
  return (
    <Section
      id={SECTION_IDS.pricing}
      eyebrow={<Trans>Preços</Trans>}
      title={<Trans>Simples e transparente</Trans>}
    >
      <div className="pricing">
        <div className="pricing__card">
          <p className="pricing__label">
            <Trans>Preço por horário</Trans>
          </p>
          <p className="pricing__range">
            <Trans>
              de <strong>{minPrice}</strong> a <strong>{maxPrice}</strong>
            </Trans>
          </p>
          <p className="pricing__note">
            <Trans>Pelo ginásio inteiro — não por pessoa.</Trans>
          </p>
          <Button size="lg" onClick={() => goToSection(SECTION_IDS.branches)}>
            <Trans>Escolher um espaço</Trans>
          </Button>
        </div>
        <ul className="checklist pricing__details">
          <li>
            <Trans>
              O preço depende do espaço, do equipamento, da localização, do dia da semana e da hora.
            </Trans>
          </li>
          <li>
            <Trans>O preço é pelo aluguer do ginásio inteiro: divida-o com quem treina consigo.</Trans>
          </li>
          <li>
            <Trans>Sem mensalidades, sem fidelização e sem taxa de inscrição.</Trans>
          </li>
          <li>
            <Trans>Pagamento antecipado e seguro com cartão.</Trans>
          </li>
        </ul>
      </div>
    </Section>
  );
}
