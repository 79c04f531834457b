"""Things people buy, one word each, for items said without commas: "add wine chips salsa ice",
"ad tomatos onoins and cilantro", "milk eggs paper towels".

A run of words is split into items only when every word is one of these (typed with at most
one slip when it is five letters or longer) or a pair below that names one thing; any other
word keeps the run one title ("baking powder", "fresh basil", "call mom").
"""

from __future__ import annotations

import re

from rapidfuzz.distance import DamerauLevenshtein

ITEM_WORDS: frozenset[str] = frozenset(
    """
    milk eggs egg bread butter cheese yogurt yoghurt cream flour sugar salt pepper rice pasta
    noodles cereal oats oatmeal granola coffee tea juice water soda wine beer vodka whiskey gin
    rum cider lemonade chips crisps salsa ice crackers cookies biscuits cake candy chocolate
    popcorn pretzels nuts almonds peanuts cashews walnuts raisins honey jam jelly syrup ketchup
    mustard mayo mayonnaise vinegar oil hummus tofu beef chicken pork turkey ham bacon sausage
    sausages steak fish salmon tuna shrimp prawns lamb mince meatballs apples apple bananas
    banana oranges orange lemons lemon limes lime grapes strawberries blueberries raspberries
    berries cherries peaches pears plums melon watermelon pineapple mango mangoes avocado
    avocados kiwi tomatoes tomato potatoes potato onions onion garlic ginger carrots carrot
    celery lettuce spinach kale cabbage broccoli cauliflower cucumber cucumbers peppers zucchini
    courgette mushrooms corn peas beans lentils chickpeas cilantro coriander parsley basil mint
    thyme rosemary oregano dill cinnamon paprika cumin tortillas tortilla bagels bagel buns rolls
    muffins croissants pizza soup sandwiches wraps napkins tissues towels toothpaste toothbrush
    shampoo conditioner soap deodorant razors lotion sunscreen diapers wipes batteries bulbs
    lightbulbs candles matches foil detergent bleach sponges trashbags charcoal ketchup olives
    pickles sauerkraut margarine ghee lard yeast cornstarch stock broth gravy pesto dressing
    sprinkles marshmallows gum mints vitamins aspirin ibuprofen bandaids plasters floss mouthwash
    dishsoap sponge
    """.split()
)

# Two words that name one thing, whose words are items on their own too.
ONE_ITEM_PAIRS: frozenset[tuple[str, str]] = frozenset(
    tuple(pair.split())  # type: ignore[misc]
    for pair in (
        "ice cream",
        "cream cheese",
        "sour cream",
        "orange juice",
        "apple juice",
        "lemon juice",
        "lime juice",
        "peanut butter",
        "olive oil",
        "coconut milk",
        "almond milk",
        "oat milk",
        "rice milk",
        "chocolate milk",
        "cheese sticks",
        "chicken soup",
        "chicken stock",
        "beef stock",
        "tomato sauce",
        "garlic bread",
        "ginger ale",
        "ginger beer",
        "root beer",
        "corn flakes",
        "rice cakes",
        "fish sticks",
        "apple pie",
        "bread crumbs",
        "chocolate chips",
        "tortilla chips",
        "potato chips",
        "ice cubes",
        "sugar snap",
        "tea bags",
        "coffee beans",
        "coffee filters",
        "water bottles",
        "soda water",
        "paper towels",
        "toilet paper",
        "garbage bags",
        "trash bags",
        "bin bags",
        "dish soap",
        "hand soap",
        "laundry detergent",
        "dishwasher tablets",
        "cat food",
        "dog food",
        "cat litter",
        "hot dogs",
        "hot sauce",
        "soy sauce",
        "maple syrup",
        "brown sugar",
        "baking soda",
        "green beans",
        "black beans",
        "sweet potatoes",
        "spring onions",
        "green onions",
        "cherry tomatoes",
        "bell peppers",
        "ground beef",
        "chicken breasts",
        "pork chops",
        "sour dough",
        "cotton balls",
        "body wash",
        "shaving cream",
    )
)
# Words that end a two-word name ("banana bread", "chocolate cake", "tomato soup"): two items
# said alone ("milk eggs") are split only when the second is not one of these.
_HEADS = frozenset(
    """
    bread cake cakes soup sauce juice pie pizza salt chips cream milk muffins cookies sandwiches
    rolls wraps tea oil butter jam yogurt noodles dressing powder soda bars sticks cubes flakes
    crackers pudding rice pasta salad sandwich cheese mix beans wine beer syrup water candy
    """.split()
)
_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")
_SLIP_FROM = 5  # letters: shorter words must be typed exactly


def _deletions(word: str) -> set[str]:
    return {word[:i] + word[i + 1 :] for i in range(len(word))}


# Every item under itself and each of its one-letter deletions: a word one slip away from an
# item shares a key with it (the symmetric-delete lookup), found without scanning the list.
_BY_DELETION: dict[str, set[str]] = {}
for _item in ITEM_WORDS:
    for _key in {_item, *_deletions(_item)}:
        _BY_DELETION.setdefault(_key, set()).add(_item)


def _is_item(word: str) -> bool:
    word = word.lower()
    if word in ITEM_WORDS:
        return True
    if len(word) < _SLIP_FROM:
        return False
    candidates = set().union(*(_BY_DELETION.get(v, ()) for v in {word, *_deletions(word)}))
    return any(DamerauLevenshtein.distance(word, item) <= 1 for item in candidates)


def items_in_a_run(phrase: str) -> list[str] | None:
    """The items a run of words names ("wine chips salsa ice" -> four), or None when any
    word is not a thing bought on its own. Pairs that name one thing stay together."""
    words = phrase.split()
    if len(words) < 2 or any(not _WORD.fullmatch(w) for w in words):
        return None
    items: list[str] = []
    index = 0
    while index < len(words):
        pair = tuple(w.lower() for w in words[index : index + 2])
        if len(pair) == 2 and pair in ONE_ITEM_PAIRS:
            items.append(" ".join(words[index : index + 2]))
            index += 2
            continue
        if not _is_item(words[index]):
            return None
        items.append(words[index])
        index += 1
    if len(words) == 2 and len(items) == 2 and words[1].lower() in _HEADS:
        return None  # "banana bread", "chocolate cake": one thing
    return items if len(items) > 1 else None
