import { useLingui } from '@lingui/react/macro';
import { Badge } from '@mantine/core';

/** A door's connection and battery, as the console shows them wherever doors are listed. */
export function DoorBadges({
  online,
  batteryLevel,
}: {
  online: boolean | null;
  batteryLevel: number | null;
}) {
  const { t } = useLingui();
  const battery = batteryLevel === null ? null : Math.round(batteryLevel * 100);
  return (
    <>
      <Badge color={online === false ? 'red' : online ? 'lime' : 'gray'} variant="light">
        {online === false ? t`sem ligação` : online ? t`ligada` : t`estado desconhecido`}
      </Badge>
      {battery !== null && (
        <Badge color={battery < 20 ? 'red' : 'gray'} variant="outline">
          {t`bateria ${battery}%`}
        </Badge>
      )}
    </>
  );
}
