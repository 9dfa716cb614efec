import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Checkbox, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { FIELD_LIMITS } from '../../machines/field-limits.ts';
import {
  asksPasswordConfirmation,
  type ProfileContext,
  type ProfileFields,
} from '../../machines/profile.machine.ts';
import { boxError, FeedbackBoxes, usePhoneProblem } from '../auth/feedback.tsx';
import { useFieldProblemText } from '../ui/fieldProblemText.ts';
import { SubmitForm } from '../ui/SubmitForm.tsx';
import { profileFlow } from './useProfile.tsx';

/** The profile tab (docs/decisions.md, 'Client'): the user's details, an optional new password and the newsletter choice. */
export const Profile = profileFlow.withProvider(function ProfileForm() {
  const { t } = useLingui();
  const problemText = useFieldProblemText();
  const [state, send] = profileFlow.useFlow();
  const { context } = state;
  const phoneProblem = usePhoneProblem(context.error);
  // One field's value, change handler and the server's problem with it.
  const field = (name: keyof ProfileFields) => ({
    value: context.fields[name],
    onChange: (event: { currentTarget: { value: string } }) =>
      send({ type: 'field.change', field: name, value: event.currentTarget.value }),
    error: problemText(context.fieldErrors[name]),
  });

  if (state.matches('loading')) return null;
  if (state.matches('loadFailed')) {
    return (
      <Stack>
        <FeedbackBoxes error={context.error} success={null} />
        <Button variant="default" onClick={() => send({ type: 'profile.reload' })}>
          <Trans>Tentar novamente</Trans>
        </Button>
      </Stack>
    );
  }

  return (
    <SubmitForm onSubmit={() => send({ type: 'profile.submit' })}>
      <Stack gap="md">
        <FeedbackBoxes error={boxError(context.error)} success={context.success} />
        {context.offeredCoupon && <OfferedCoupon coupon={context.offeredCoupon} />}
        <Group grow gap="sm" align="flex-start">
          <TextInput
            label={t`Nome próprio`}
            required
            autoComplete="given-name"
            maxLength={FIELD_LIMITS.personName}
            {...field('firstName')}
          />
          <TextInput
            label={t`Apelido`}
            required
            autoComplete="family-name"
            maxLength={FIELD_LIMITS.personName}
            {...field('lastName')}
          />
        </Group>
        <TextInput
          label={t`E-mail`}
          type="email"
          required
          autoComplete="email"
          maxLength={FIELD_LIMITS.email}
          {...field('email')}
        />
        <TextInput
          label={t`Número de telefone`}
          type="tel"
          required
          autoComplete="tel"
          placeholder="+351 912 345 678"
          maxLength={FIELD_LIMITS.phone}
          {...field('phone')}
          {...phoneProblem}
        />
        <TextInput
          label={t`NIF (opcional, para o recibo)`}
          inputMode="numeric"
          autoComplete="off"
          maxLength={FIELD_LIMITS.taxId}
          {...field('taxId')}
          error={
            context.fieldErrors.taxId
              ? t`O NIF não é válido: tem 9 algarismos e o último é de controlo.`
              : undefined
          }
        />
        <PasswordInput
          label={t`Nova palavra-passe (opcional)`}
          autoComplete="new-password"
          maxLength={FIELD_LIMITS.password}
          {...field('newPassword')}
        />
        {asksPasswordConfirmation(context) && (
          <PasswordInput
            label={t`Confirmar a nova palavra-passe`}
            autoComplete="new-password"
            required
            maxLength={FIELD_LIMITS.password}
            {...field('confirmNewPassword')}
          />
        )}
        <Checkbox
          label={t`Quero receber a newsletter com novidades e promoções`}
          checked={context.agreeNewsletter}
          onChange={(event) => send({ type: 'newsletter.change', checked: event.currentTarget.checked })}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={state.matches('saving')}>
            <Trans>Atualizar perfil</Trans>
          </Button>
        </Group>
      </Stack>
    </SubmitForm>
  );
});

/** The early-bird coupon the member is offered: its code, its discount and how many uses are left. */
function OfferedCoupon({ coupon }: { coupon: NonNullable<ProfileContext['offeredCoupon']> }) {
  const { t } = useLingui();
  const code = coupon.code;
  const percent = Math.round(coupon.discount * 100);
  return (
    // An offer, not news: a note, not an alert announced every time the profile opens (issue 30).
    <Alert color="teal" role="note" title={t`Cupão de cliente fundador ${code}`}>
      <Trans>{percent}% de desconto, aplicado automaticamente ao reservar.</Trans>{' '}
      {coupon.remaining_uses !== null && (
        <Plural
          value={coupon.remaining_uses}
          one="Resta-lhe # utilização."
          other="Restam-lhe # utilizações."
        />
      )}
    </Alert>
  );
}
