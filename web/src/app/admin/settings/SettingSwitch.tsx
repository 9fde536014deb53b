import { Switch, type SwitchProps } from '@mantine/core';
import { useId } from 'react';

/**
 * A setting's on/off switch whose description and error are tied to it (`aria-describedby`), as Mantine does for
 * text inputs but not for switches: a screen reader then reads why the server refused to turn it on.
 */
export function SettingSwitch({ description, error, ...props }: SwitchProps) {
  const id = useId();
  const described = [description && `${id}-description`, error && `${id}-error`].filter(Boolean).join(' ');
  return (
    <Switch
      {...props}
      aria-describedby={described || undefined}
      description={description && <span id={`${id}-description`}>{description}</span>}
      error={error && <span id={`${id}-error`}>{error}</span>}
    />
  );
}
