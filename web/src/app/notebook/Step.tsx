import { Button, Group, Paper, Stack, Title } from '@mantine/core';
import { useId, useState, type ReactNode } from 'react';
import { Preview } from './Preview';
import { queryUntil, type StepName } from './steps';
import type { Mbql5Query } from './types';

/** One step of the notebook: a region named by its heading, its content, and a Preview of the query up to it. */
export function Step({
  title,
  step,
  query,
  stageIndex = 0,
  children,
}: {
  title: string;
  step: StepName;
  query: Mbql5Query | null;
  stageIndex?: number;
  children: ReactNode;
}) {
  const id = useId();
  const [preview, setPreview] = useState(false);
  return (
    <Paper component="section" aria-labelledby={id} withBorder p="md" radius="md">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4" id={id}>
            {title}
          </Title>
          {query && (
            <Button variant="subtle" size="xs" aria-expanded={preview} onClick={() => setPreview((p) => !p)}>
              {preview ? `Hide preview` : `Preview`}
            </Button>
          )}
        </Group>
        {children}
        {preview && query && <Preview query={queryUntil(query, step, 10, stageIndex)} label={`${title} preview`} />}
      </Stack>
    </Paper>
  );
}
