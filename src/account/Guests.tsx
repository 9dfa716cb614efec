import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { createGuestsActors } from '../../machines/guests.actors.ts';
import { guestsMachine, type Guest } from '../../machines/guests.machine.ts';
import type { Booking } from '../../machines/myBookings.selectors.ts';
import { createFlowBinding } from '../app/binding.tsx';
import { useFeedbackText } from '../auth/feedback.tsx';
import type { Locale } from '../i18n/locales.ts';
import { SubmitForm } from '../ui/SubmitForm.tsx';
import { timeOnly } from './time.ts';

/** A booking's guests' binding (machines/guests.machine.ts): one flow per booking, started when its row shows. */
const guestsFlow = createFlowBinding(guestsMachine, (runtime) =>
  guestsMachine.provide({ actors: createGuestsActors(runtime.api) }),
);

/** Where a guest's own code stands, as the member reads it beside the guest. */
function useDoorCodeText() {
  const { t } = useLingui();
  return (guest: Guest, timeZone: string, locale: Locale): string => {
    if (guest.entered_at) {
      const at = timeOnly(guest.entered_at, timeZone, locale);
      return t`entrou às ${at}`;
    }
    if (guest.door_code === 'set') return t`código pronto na porta`;
    if (guest.door_code === 'pending') return t`código a ser programado na porta`;
    return t`código anulado`;
  };
}

function GuestsDialog({ booking, when, locale }: { booking: Booking; when: string; locale: Locale }) {
  const { t } = useLingui();
  const [state, send] = guestsFlow.useFlow();
  const feedbackText = useFeedbackText();
  const doorCodeText = useDoorCodeText();
  const { guests, form, error, removing } = state.context;
  const timeZone = booking.time_slot_data.branch_data.time_zone;
  const input = (field: 'name' | 'phone' | 'email') => ({
    value: form[field],
    onChange: (event: React.ChangeEvent<HTMLInputElement>) =>
      send({ type: 'guest.input', field, value: event.currentTarget.value }),
  });
  return (
    <Modal
      opened={!state.matches('closed')}
      onClose={() => send({ type: 'guests.close' })}
      title={t`Convidados: ${when}`}
      centered
      zIndex={250}
      closeButtonProps={{ 'aria-label': t`Fechar` }}
      classNames={{ title: 'auth-modal__title', content: 'auth-modal' }}
    >
      <Stack gap="md">
        <Text size="sm">
          <Trans>
            Cada convidado recebe o seu próprio código da porta por SMS ou e-mail, 30 minutos antes do início.
            Se remover um convidado ou cancelar a reserva, o código dele deixa de abrir a porta no mesmo
            instante, e avisamo-lo se já o tiver recebido.
          </Trans>
        </Text>
        {state.matches('loading') && (
          <Text c="gray.5" role="status">
            <Trans>A carregar os convidados…</Trans>
          </Text>
        )}
        {state.matches('failed') && (
          <Group gap="sm">
            <Text c="red.4" role="alert">
              {error ? feedbackText(error) : null}
            </Text>
            <Button variant="default" size="xs" onClick={() => send({ type: 'guests.retry' })}>
              <Trans>Tentar novamente</Trans>
            </Button>
          </Group>
        )}
        {!state.matches('loading') && !state.matches('failed') && (
          <>
            {guests.length === 0 ? (
              <Text c="gray.5">
                <Trans>Ainda não tem convidados nesta reserva.</Trans>
              </Text>
            ) : (
              <ul className="guest-list" aria-label={t`Convidados`}>
                {guests.map((guest) => (
                  <li key={guest.id} className="guest-list__item">
                    <div>
                      <Text fw={600}>{guest.name}</Text>
                      <Text size="sm" c="gray.4">
                        {[guest.phone_number, guest.email].filter(Boolean).join(' · ')} ·{' '}
                        {doorCodeText(guest, timeZone, locale)}
                      </Text>
                    </div>
                    <Button
                      variant="subtle"
                      color="red"
                      size="xs"
                      aria-label={t`Remover ${guest.name}`}
                      disabled={!state.can({ type: 'guest.remove', id: guest.id })}
                      loading={removing === guest.id}
                      onClick={() => send({ type: 'guest.remove', id: guest.id })}
                    >
                      <Trans>Remover</Trans>
                    </Button>
                  </li>
                ))}
              </ul>
            )}
            <SubmitForm onSubmit={() => send({ type: 'guest.add' })}>
              <Stack gap="xs">
                <TextInput
                  label={t`Nome do convidado`}
                  autoComplete="off"
                  maxLength={80}
                  {...input('name')}
                />
                <TextInput
                  label={t`Telemóvel do convidado`}
                  description={t`Com o indicativo do país, por exemplo +351912345678.`}
                  classNames={{ description: 'guest-form__hint' }}
                  type="tel"
                  autoComplete="off"
                  maxLength={32}
                  {...input('phone')}
                />
                <TextInput
                  label={t`E-mail do convidado`}
                  type="email"
                  autoComplete="off"
                  maxLength={254}
                  {...input('email')}
                />
                <Text size="xs" c="gray.5">
                  <Trans>Indique pelo menos o telemóvel ou o e-mail.</Trans>
                </Text>
                {error && !state.matches('failed') && (
                  <Text c="red.4" role="alert">
                    {feedbackText(error)}
                  </Text>
                )}
                <Group justify="flex-end">
                  <Button type="submit" loading={state.matches('adding')} disabled={!state.matches('ready')}>
                    <Trans>Adicionar convidado</Trans>
                  </Button>
                </Group>
              </Stack>
            </SubmitForm>
          </>
        )}
      </Stack>
    </Modal>
  );
}

function GuestsEntry({ booking, when, locale }: { booking: Booking; when: string; locale: Locale }) {
  const { t } = useLingui();
  const send = guestsFlow.useSend();
  return (
    <>
      <Button
        variant="light"
        size="xs"
        aria-label={t`Convidados da reserva de ${when}`}
        onClick={() => send({ type: 'guests.open' })}
      >
        {t`Convidados`}
      </Button>
      <GuestsDialog booking={booking} when={when} locale={locale} />
    </>
  );
}

/**
 * "Convidados" on a confirmed booking that has not ended (issue 31): the dialog that lists, adds and removes its
 * guests, each with a door code of their own.
 */
export const GuestsButton = guestsFlow.withProvider(GuestsEntry, ({ booking }) => ({
  input: { bookingId: booking.id },
}));
