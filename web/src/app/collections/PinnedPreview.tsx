import { Box, Loader, Text, useComputedColorScheme } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Visualization } from '../../visualizations';
import { cardKeys, useCard } from '../api/card';
import { runCard } from '../api/dataset';

/**
 * A pinned question's chart, small, as Metabase shows pinned questions: the question run as it is saved. Tables
 * and single numbers are drawn too; a failure is said in words instead of the chart.
 */
export function PinnedPreview({ id, name }: { id: number; name: string }) {
  const card = useCard(id);
  const result = useQuery({
    queryKey: [...cardKeys.all, id, 'preview'],
    queryFn: ({ signal }) => runCard(id, [], signal),
    staleTime: 60_000,
  });
  const theme = useComputedColorScheme('light') === 'dark' ? 'night' : 'light';
  const failed = result.isError || result.data?.status === 'failed';
  return (
    <Box h={160} mt="xs" aria-label={`Preview of ${name}`} role="figure">
      {failed ? (
        <Text size="sm" c="dimmed">
          The preview could not be drawn.
        </Text>
      ) : !result.data || !card.data ? (
        <Loader size="sm" aria-label={`Loading the preview of ${name}`} />
      ) : (
        <Visualization
          display={card.data.display}
          settings={card.data.visualization_settings ?? {}}
          data={result.data.data}
          theme={theme}
          height={160}
        />
      )}
    </Box>
  );
}
