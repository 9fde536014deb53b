import { Injectable } from '@nestjs/common';

/** An event or query class: messages are matched by their exact class, never by a parent class. */
export type MessageType<M> = abstract new (...args: never[]) => M;

/**
 * A question that modules answer through the bus, for a module that must not import the ones that know: `A` is the
 * type of one answer. Subclasses carry the question's parameters.
 */
export abstract class BusQuery<A> {
  /** Never set: it only carries the answer's type to `answer` and `ask`. */
  declare readonly answerType?: A;
}

export type AnswerOf<Q> = Q extends BusQuery<infer A> ? A : never;

type Handler = (message: never) => unknown;

/**
 * How modules tell each other what happened, and ask what only a module above them knows, without importing
 * it: the lower module defines the event or query class, the higher one subscribes in its `onModuleInit`.
 * In-process and awaited: `emit` runs every listener in turn (inside the emitter's transaction when the event
 * carries one), so a listener's error reaches the emitter. (ClusterEvents, in common/cluster, is the other bus:
 * between app instances, for caches.)
 */
@Injectable()
export class EventBus {
  private readonly handlers = new Map<MessageType<unknown>, Handler[]>();

  /** Runs `listener` on every event of class `type`; answers the function that unsubscribes it. */
  on<E extends object>(type: MessageType<E>, listener: (event: E) => void | Promise<void>): () => void {
    return this.add(type, listener);
  }

  /** Answers every query of class `type`; answers the function that withdraws it. */
  answer<Q extends BusQuery<unknown>>(type: MessageType<Q>, answerer: (query: Q) => AnswerOf<Q> | Promise<AnswerOf<Q>>): () => void {
    return this.add(type, answerer);
  }

  /**
   * Tells every listener of the event's class, one after the other in the order they subscribed, each awaited.
   * The first that throws stops the rest, and the emitter receives its error.
   */
  async emit(event: object): Promise<void> {
    for (const listener of this.of(event)) await listener(event as never);
  }

  /** Every answer to `query`, in the order the answerers subscribed; none when no module answers it. */
  async ask<A>(query: BusQuery<A>): Promise<A[]> {
    const answers: A[] = [];
    for (const answerer of this.of(query)) answers.push((await answerer(query as never)) as A);
    return answers;
  }

  /** The first answer to `query`; undefined when no module answers it. */
  async askOne<A>(query: BusQuery<A>): Promise<A | undefined> {
    const [answerer] = this.of(query);
    return answerer ? ((await answerer(query as never)) as A) : undefined;
  }

  private add(type: MessageType<unknown>, handler: Handler): () => void {
    const list = this.handlers.get(type) ?? [];
    this.handlers.set(type, [...list, handler]);
    return () =>
      this.handlers.set(
        type,
        (this.handlers.get(type) ?? []).filter((h) => h !== handler),
      );
  }

  private of(message: object): Handler[] {
    return this.handlers.get(message.constructor as MessageType<unknown>) ?? [];
  }
}
