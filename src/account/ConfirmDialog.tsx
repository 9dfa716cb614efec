import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Modal, Stack, Text, type ModalProps } from '@mantine/core';
import type { ReactNode } from 'react';
import type { Feedback } from '../../machines/feedback.ts';
import { useFeedbackText } from '../auth/feedback.tsx';

/**
 * The account's confirmation of what cannot be undone (cancelling bookings, deleting the account), over the
 * account modal: what is at stake (`children`), the flow's error, then Cancel and the red button that does it
 * (`confirm` its label); closing the dialog is cancelling.
 */
export function ConfirmDialog({
  opened,
  title,
  size,
  error,
  confirm,
  dismiss,
  confirming,
  disabled,
  onCancel,
  onConfirm,
  children,
}: {
  opened: boolean;
  title: string;
  size?: ModalProps['size'];
  error: Feedback | null;
  confirm: ReactNode;
  /** The button that leaves things as they are, named for it where "Cancelar" would be ambiguous. */
  dismiss?: ReactNode;
  confirming: boolean;
  disabled?: boolean;
  onCancel: () => void;
  onConfirm: () => void;
  children: ReactNode;
}) {
  const { t } = useLingui();
  const feedbackText = useFeedbackText();
  return (
    <Modal
      opened={opened}
      onClose={onCancel}
      title={title}
      centered
      size={size}
      zIndex={250}
      closeButtonProps={{ 'aria-label': t`Fechar` }}
      classNames={{ title: 'auth-modal__title', content: 'auth-modal' }}
    >
      <Stack gap="md">
        {children}
        {error && (
          <Text c="red.4" role="alert">
            {feedbackText(error)}
          </Text>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            {dismiss ?? <Trans>Cancelar</Trans>}
          </Button>
          <Button color="red.9" disabled={disabled} loading={confirming} onClick={onConfirm}>
            {confirm}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
