import { ActionIcon, Box, Button, Group, Skeleton, Text } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { useCollectionLevel, type CollectionNode } from '../api/collection';

/** Siblings drawn at first; a level with more offers the rest a page at a time, so a wide level stays quick to draw. */
const PAGE = 100;

export interface TreeProps {
  /** What a node shows: a link (the navigation) or a choice (a picker). */
  render(node: CollectionNode): ReactNode;
  /** Nodes that are drawn but not opened (a collection cannot move into itself). */
  closed?: ReadonlySet<number>;
  /** Ids to open at first (the ancestors of the collection shown). */
  open?: ReadonlySet<number>;
}

/**
 * A collection tree read a level at a time (`GET /api/collection/tree?shallow=true&collection-id=`): a level is asked
 * for when its parent opens, so however many collections there are, the page holds the levels someone opened.
 */
export function CollectionTree({ nodes, depth = 0, ...props }: TreeProps & { nodes: CollectionNode[]; depth?: number }) {
  const [shown, setShown] = useState(PAGE);
  return (
    <Box component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
      {nodes.slice(0, shown).map((n) => (
        <TreeNode key={n.id} node={n} depth={depth} {...props} />
      ))}
      {nodes.length > shown && (
        <li>
          <Button variant="subtle" size="compact-sm" ml={depth * 14 + 28} onClick={() => setShown(shown + PAGE)}>
            Show {Math.min(PAGE, nodes.length - shown)} more
          </Button>
        </li>
      )}
    </Box>
  );
}

function TreeNode({ node, depth, ...props }: TreeProps & { node: CollectionNode; depth: number }) {
  const [open, setOpen] = useState(props.open?.has(node.id) ?? false);
  const hasChildren = (node.children === true || (Array.isArray(node.children) && node.children.length > 0)) && !props.closed?.has(node.id);
  return (
    <li>
      <Group gap={2} wrap="nowrap" pl={depth * 14}>
        {hasChildren ? (
          <ActionIcon
            variant="subtle"
            color="gray"
            size="sm"
            aria-expanded={open}
            aria-label={`${open ? 'Collapse' : 'Expand'} ${node.name}`}
            onClick={() => setOpen(!open)}
          >
            <span aria-hidden="true" style={{ display: 'inline-block', transform: open ? 'rotate(90deg)' : undefined }}>
              ›
            </span>
          </ActionIcon>
        ) : (
          <Box w={22} style={{ flex: 'none' }} />
        )}
        <Box style={{ flex: 1, minWidth: 0 }}>{props.render(node)}</Box>
      </Group>
      {open && <TreeLevel parent={node.id} depth={depth + 1} label={node.name} {...props} />}
    </li>
  );
}

/** The children of one collection, asked for when it opens. */
export function TreeLevel({ parent, depth, label, ...props }: TreeProps & { parent: number | null; depth: number; label: string }) {
  const level = useCollectionLevel(parent);
  if (level.isPending) return <Skeleton h={24} ml={depth * 14 + 24} my={2} aria-label={`Loading the collections in ${label}`} />;
  if (level.isError)
    return (
      <Text size="sm" c="red" ml={depth * 14 + 24} role="alert">
        {level.error.message}
      </Text>
    );
  return <CollectionTree nodes={level.data} depth={depth} {...props} />;
}
