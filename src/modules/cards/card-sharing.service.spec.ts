import { MessageError } from '../../common/errors/api-errors';
import type { SettingsService } from '../settings';
import { CardSharingService, EMBEDDING_DISABLED, PUBLIC_SHARING_DISABLED } from './card-sharing.service';
import type { CardsRepository } from './cards.repository';

/** CardSharingService: the admin listings answer only while their feature is on; the repository and settings mocked. */
describe('CardSharingService', () => {
  function setup(on: Record<string, boolean>) {
    const cards = {
      embeddable: jest.fn().mockResolvedValue([{ id: 3, name: 'Orders' }]),
      withPublicLinks: jest.fn().mockResolvedValue([{ id: 4, name: 'Revenue', public_uuid: 'a1b2' }]),
    };
    const settings = { get: jest.fn(async (key: string) => on[key] ?? false) };
    const service = new CardSharingService(cards as unknown as CardsRepository, settings as unknown as SettingsService);
    return { service, cards, settings };
  }

  it('lists embeddable cards only while static embedding is on', async () => {
    const off = setup({});
    const e = await off.service.embeddable().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(MessageError);
    expect((e as MessageError).message).toBe(EMBEDDING_DISABLED);
    expect(off.settings.get).toHaveBeenCalledWith('enable-embedding-static');
    // A refusal must not read the cards at all.
    expect(off.cards.embeddable).not.toHaveBeenCalled();

    await expect(setup({ 'enable-embedding-static': true }).service.embeddable()).resolves.toEqual([{ id: 3, name: 'Orders' }]);
  });

  it('lists cards with a public link only while public sharing is on', async () => {
    const off = setup({ 'enable-embedding-static': true });
    const e = await off.service.publicCards().catch((x: unknown) => x);
    expect((e as MessageError).message).toBe(PUBLIC_SHARING_DISABLED);
    expect(off.settings.get).toHaveBeenCalledWith('enable-public-sharing');
    expect(off.cards.withPublicLinks).not.toHaveBeenCalled();

    await expect(setup({ 'enable-public-sharing': true }).service.publicCards()).resolves.toEqual([
      { id: 4, name: 'Revenue', public_uuid: 'a1b2' },
    ]);
  });
});
