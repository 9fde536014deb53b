import { ancestorIds, childLocation, isWithin, parentId, subtreeRange, topLevelId } from './location';

describe('collection locations', () => {
  it('reads ancestors, parent and top from a location', () => {
    expect(ancestorIds('/')).toEqual([]);
    expect(ancestorIds('/1/22/333/')).toEqual([1, 22, 333]);
    expect(parentId('/')).toBeNull();
    expect(parentId('/1/22/')).toBe(22);
    expect(topLevelId({ id: 5, location: '/' })).toBe(5);
    expect(topLevelId({ id: 5, location: '/3/4/' })).toBe(3);
    expect(childLocation({ id: 7, location: '/3/' })).toBe('/3/7/');
  });

  it('bounds a subtree by a half-open range that holds exactly its locations', () => {
    const [lo, hi] = subtreeRange('/1/2/');
    const inRange = (l: string) => l >= lo && l < hi;
    for (const inside of ['/1/2/', '/1/2/3/', '/1/2/30/4/', '/1/2/999999/']) expect([inside, inRange(inside)]).toEqual([inside, true]);
    for (const outside of ['/1/', '/1/20/', '/1/21/', '/1/3/', '/12/', '/1/2', '/'])
      expect([outside, inRange(outside)]).toEqual([outside, false]);
    expect(isWithin('/1/2/3/', '/1/2/')).toBe(true);
    expect(isWithin('/1/20/', '/1/2/')).toBe(false);
  });
});
