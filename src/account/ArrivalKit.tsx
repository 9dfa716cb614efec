import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Text } from '@mantine/core';
import type { Booking } from '../../machines/myBookings.selectors.ts';

type Kit = NonNullable<Booking['arrival']>;

/**
 * The branch's arrival kit under its door code (issue 30, item 1): nobody is on site, so this is where a member
 * at the door finds the entrance, the keypad, the Wi-Fi, the rules and whom to call. Texts are the operator's
 * plain text, line breaks kept.
 */
export function ArrivalKit({ kit, branchName }: { kit: Kit; branchName: string }) {
  const { t } = useLingui();
  const phoneLink = kit.support_phone ? `tel:${kit.support_phone.replace(/[^+0-9]/g, '')}` : null;
  return (
    <section className="arrival-kit" aria-label={t`Como chegar e entrar`} data-testid="arrival-kit">
      {kit.entrance_photo_url && (
        <img
          className="arrival-kit__photo"
          src={kit.entrance_photo_url}
          alt={t`A entrada de ${branchName}`}
          loading="lazy"
        />
      )}
      {kit.directions && (
        <div>
          <Text fw={600} size="sm">
            <Trans>A entrada</Trans>
          </Text>
          <Text size="sm" className="arrival-kit__text">
            {kit.directions}
          </Text>
        </div>
      )}
      {kit.keypad && (
        <div>
          <Text fw={600} size="sm">
            <Trans>O teclado e o código</Trans>
          </Text>
          <Text size="sm" className="arrival-kit__text">
            {kit.keypad}
          </Text>
        </div>
      )}
      <ul className="arrival-kit__facts">
        {kit.map_url && (
          <li>
            <Anchor href={kit.map_url} target="_blank" rel="noopener noreferrer" size="sm">
              <Trans>Ver no mapa</Trans>
            </Anchor>
          </li>
        )}
        {kit.wifi_network && (
          <li>
            <Text size="sm" component="span">
              {kit.wifi_password ? (
                <Trans>
                  Wi-Fi: <strong>{kit.wifi_network}</strong>, palavra-passe{' '}
                  <strong>{kit.wifi_password}</strong>
                </Trans>
              ) : (
                <Trans>
                  Wi-Fi: <strong>{kit.wifi_network}</strong>
                </Trans>
              )}
            </Text>
          </li>
        )}
        {kit.rules && (
          <li>
            <Text size="sm" component="span">
              <Trans>Regras da casa: {kit.rules}</Trans>
            </Text>
          </li>
        )}
        {phoneLink && (
          <li>
            <Anchor href={phoneLink} size="sm">
              <Trans>Ajuda: {kit.support_phone}</Trans>
            </Anchor>
          </li>
        )}
      </ul>
    </section>
  );
}
