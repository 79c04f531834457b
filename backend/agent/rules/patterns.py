"""The sentence patterns behind intent detection, most specific first.

Each rule (`SentenceRule`) has a name, a kind, an intent, an action and a pattern, and
carries its examples (and not_examples), which are tests; a pattern matches the whole request
(after filler and politeness are set aside) and may capture the words the action applies to
as `obj` (or `obj2`..`obj4`, `target` + `newtitle`, `desc`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from backend.agent.rules.types import Action, Intent, RuleKind
from backend.agent.rules.vocabulary import TASK_VERBS

_I = re.IGNORECASE

_LIST_NOUN = (
    r"(?:(?:to-?do|todo|task|shopping|grocery|groceries|work|reminders?|check)\s*)?(?:list|lists)"
)
_MY_LIST = rf"(?:my|the|our|your)\s+(?:\w+\s+)?{_LIST_NOUN}"
_TASKS = r"(?:tasks?|to-?dos?|todos|items?|things|reminders?|stuff|chores|errands)"
# "mark them as purchased": how it got done, as the state it is marked with
_MARKED_AS = r"as (?:purchased|bought|paid|sent|handled|got|gotten|collected|picked up|read)"
_DONE_WORDS = (
    r"(?:done|complete|completed|finished|finish|ticked off|checked off|crossed off|sorted)"
)

GREETING_PATTERN = re.compile(
    r"^(?:hi+|hello+|hey+|hiya|howdy|yo|heya|greetings|good (?:morning|afternoon|evening|day)|"
    r"what's up|whats up|sup|morning|evening|how are you(?: doing| today)?|how are things|"
    r"how(?:'s| is) it going|how(?:'s| is) your day|how do you do)"
    r"(?:\s+(?:there|bot|assistant|again|friend|buddy|everyone|all))?[\W_]*$",
    _I,
)
HELP_PATTERN = re.compile(
    r"^(?:help(?: me)?(?: out)?|what can you do(?: for me)?|what do you do|what are you|"
    r"who are you|what (?:are )?(?:the|your) commands|commands|usage|instructions|"
    r"how (?:does|do) (?:this|it|you) work|how (?:do|can|should) i\b.*|how to\b.*|"
    r"what can i (?:say|do|ask)\b.*|what should i say|i'm (?:confused|lost|stuck)|"
    r"what (?:kind|sort|type)s? of (?:things|stuff|commands|questions) can i\b.*|"
    r"what (?:things|commands) (?:can|do) you (?:understand|know|support)|"
    r"i am (?:confused|lost|stuck)|\?+|(?:i'm|i am) (?:confused|lost|stuck)\b.*|"
    r"what are my options(?: here)?|what (?:are|is) (?:my|the) options?|what now)$",
    _I,
)
UNDO_PATTERN = re.compile(
    r"^(?:undo(?: (?:that|it|this|the last (?:one|change|action|thing|step|edit)|last|please|pls|"
    r"again|what you (?:just )?did|my last (?:change|request|one|thing)))*|"
    # "wait no i didnt submit it yet, undo", "oops wrong one undo"
    r".+[,;.!]\s*(?:so\s+|please\s+)?undo(?: (?:that|it|this))?(?: please)?|"
    r"(?:oops|(?:oh )?no|wrong|my bad|sorry)[\w\s,.!']*?\s+undo(?: (?:that|it|this))?(?: please)?|"
    # "oh no, this was wrong, go back please", "no. put bananas back."
    r"(?:(?:(?:oh\s+)?no|oops|sorry|my bad)[\w\s,.!']*?|(?:this|that|it)\s+was\s+(?:a\s+)?)"
    r"(?:wrong|mistake)[\s,.!]*"
    r"(?:please\s+)?go back(?: please)?|"
    r"go back(?: please)?|"
    r"revert(?: that| it)?|"
    r"take (?:that|it) back|reverse that|oops,? undo(?: that)?|cancel that(?: last)? change|"
    r"(?:put|bring|add|get)(?: (?:it|that|them|this|those|that one))? back(?: on| in| there)?"
    r"(?: (?:on |in |to )?(?:the|my) list)?(?: (?:please|again))?|restore (?:it|that|them)|"
    # "make it back like before", "change it back", "set it back to how it was"
    r"(?:make|change|set|turn|switch|put)\s+(?:it|that|them|this)\s+(?:back|(?=like|as|how))"
    r"(?:\s+(?:to\s+)?(?:like|as|how|the way|what)\s*(?:it|they)?\s*(?:was|were)?"
    r"(?:\s+before)?)?(?: (?:please|again))?)"
    # "..., i still have to do it"; "undo pls that was wrong i havent done it yet": the reason
    r"(?:\s*[,;].*|\s+(?=(?:i|we|i'm|i've|that was|it was|this was|it's|still|actually|sorry|"
    r"oops|my bad|wrong|that's wrong)\b).*)?$",
    _I,
)


# The kinds of rule that read a statement, not a request. Several modules weigh them (the
# arbiter, the clause splitter, questions): one list, so a new statement rule is added once.
DONE_STATEMENTS = frozenset({RuleKind.DID_X, RuleKind.X_IS_DONE, RuleKind.DONE_STATEMENT})
STATEMENTS = DONE_STATEMENTS | {RuleKind.ALREADY_DONE, RuleKind.NOT_NEEDED}


_STATUS_WORD = (
    r"(?:pending|unfinished|incomplete|open|outstanding|remaining|undone|done|completed|finished|"
    r"ticked off|checked off|not done|not finished)"
)
_ITEM_WORDS = r"(?:ones|stuff|tasks|items|things|todos|to-?dos)"
# "(the stuff) I've already finished", "(the tasks) I have yet to complete", "that are left"
_STATUS_CLAUSE = (
    r"(?:(?:that|which)\s+)?(?:(?:i|i've|i have|i've been|we|we've)\s+(?:already\s+)?"
    r"(?:finished|done|completed|ticked off|knocked out|crossed off|got done)|"
    r"(?:i|we)\s+(?:have|still have|still need)\s+(?:yet\s+)?to\s+(?:do|complete|finish)|"
    r"(?:i|we)\s+(?:haven't|have not|didn't|did not)\s+(?:done|finished|completed|do|finish)"
    r"(?:\s+yet)?|(?:are|is|that's|that are)\s+(?:still\s+)?(?:left|pending|open|outstanding|"
    r"not done|to do|waiting))"
)


@dataclass(frozen=True)
class SentenceRule:
    """A sentence pattern and what it means: the intent and action it names, the kind of
    reading it is (`RuleKind`) and the label people read (`name`). Its `examples` are tests
    (tests/agent/rules/test_sentence_rules.py): the rule takes each of them, as a clause is
    presented to it (`core_request`), and no earlier rule does; it takes none of its
    `not_examples`."""

    name: str
    kind: RuleKind
    intent: Intent
    action: Action
    pattern: re.Pattern[str]
    examples: tuple[str, ...]
    not_examples: tuple[str, ...] = ()


# Tried in this order; the first that matches decides.
SENTENCE_RULES: tuple[SentenceRule, ...] = (
    SentenceRule(
        "just the X ones",
        RuleKind.SENTENCE,
        Intent.LIST,
        Action.PLAIN,
        re.compile(
            # the list, narrowed (or widened) by a status said on its own
            r"^(?:(?:and|now|then)\s+)*(?:(?:just|only)\s+(?:the\s+|my\s+)?(?:"
            rf"{_STATUS_WORD}(?:\s+{_ITEM_WORDS})?|{_ITEM_WORDS}\s+{_STATUS_CLAUSE})"
            rf"|(?:the\s+|my\s+)?(?:{_STATUS_WORD}\s+{_ITEM_WORDS}|{_ITEM_WORDS}\s+{_STATUS_CLAUSE})"
            rf"(?:\s+only)?|{_STATUS_WORD}\s+only|(?:the\s+)?(?:pending|unfinished|incomplete|"
            r"outstanding|remaining|undone|uncompleted)"
            r"|the\s+(?:full|whole|entire|complete)\s+(?:list|thing|lot))(?:\s+please)?$",
            _I,
        ),
        examples=(
            "only the unfinished stuff",
            "just the done ones",
            "finished ones",
            "pending only",
            "Just the stuff I've already finished",
            "And now the full list",
        ),
    ),
    # --- bulk delete, asked before anything is removed ------------------------------
    SentenceRule(
        "clear the whole list",
        RuleKind.SENTENCE,
        Intent.DELETE,
        Action.CLEAR,
        re.compile(
            rf"^(?:clear|empty|wipe|reset|delete|remove|erase|trash|drop|nuke)\s+(?:out\s+)?(?:all\s+(?:of\s+)?)?"
            rf"(?:(?:my|the)\s+)?(?:(?P<status>completed|done|finished|pending)\s+)?"
            rf"(?:(?:entire|whole)\s+)?(?:{_LIST_NOUN}|{_TASKS}|everything|"
            r"(?:(?<=completed )|(?<=done )|(?<=finished ))(?:ones|stuff))(?:\s+(?:out|clean))?$"
            r"|^(?:delete|remove|clear|erase) (?:it )?all$|^start over$|^delete everything.*$"
            r"|^take (?:everything|it all|all of it|all of them)\s+off\b.*$"
            # "it": the list just shown
            r"|^(?:clear|empty|wipe|erase|scrap|bin|trash|ditch|nuke)\s+"
            r"(?:it|it all|it out|the lot)(?:\s+(?:entirely|completely|out|all|clean))?$"
            r"|^(?:clear|empty|wipe|erase|delete)\s+(?:the\s+|my\s+)?(?:entire|whole)\s+list"
            r"(?:,?\s+(?:every single (?:item|task|one|thing)|all of it|everything|the lot))+$"
            r"|^(?:clear|delete|remove|wipe|erase)\s+(?:everything|all(?: (?:my )?tasks)?)\s+"
            r"(?:off|from|on)\s+(?:my|the)\s+(?:\w+\s+)?list$",
            _I,
        ),
        examples=(
            "clear my list",
            "delete everything",
            "wipe all my tasks",
            "clear everything off my list",
            "delete the finished tasks",
            "empty it entirely",
            "clear the entire list, every single item",
        ),
    ),
    SentenceRule(
        "I finished everything",
        RuleKind.SENTENCE,
        Intent.COMPLETE,
        Action.PLAIN,
        re.compile(
            r"^(?:i|we)(?:'m|'ve|\s+am|\s+are|\s+have)?\s+(?:already\s+|just\s+)?(?:finish|finished|"
            r"done|completed|did|make|made)\s+(?:with\s+)?(?P<obj>everything|all(?: of it)?|all "
            r"(?:my|the) (?:tasks|things))(?:\s+on\s+(?:my|the)\s+list)?$",
            _I,
        ),
        examples=(
            "I am finish everything on my list.",
            "I finished everything",
            "I've completed all my tasks",
        ),
    ),
    SentenceRule(
        "items after a colon",
        RuleKind.SENTENCE,
        Intent.CREATE,
        Action.PLAIN,
        re.compile(
            # whatever leads in, a list noun and a colon introduce the items (a leading
            # "add ...:" is read by the add rule, which knows more about items)
            rf"^(?!(?:add|put|create|include|jot|note|write)\b)"
            rf"(?!.*\b(?:delete|remove|complete|finish|done|cross|tick)\b[^:]*:)[^:]*"
            rf"\b(?:{_LIST_NOUN}|things|stuff|items|groceries|supplies|ingredients)\s*:\s*"
            r"(?P<obj>[^:,]+(?:,[^:,]+)+(?:\s+and\s+[^:,]+)?)$",
            _I,
        ),
        examples=(
            "we're doing tacos, so I need a few things on the list: tortillas, ground beef and"
            " salsa",
            "for the party I need some supplies: balloons, candles and paper plates",
        ),
    ),
    # --- lookups: "is milk on my list?" ---------------------------------------------
    SentenceRule(
        "check that X is on the list",
        RuleKind.SENTENCE,
        Intent.LIST,
        Action.LOOKUP,
        re.compile(
            # asked to look, never to change
            rf"^(?:just\s+|simply\s+)?(?:confirm|check|verify|double[- ]?check|make sure|see)\s+"
            rf"(?:for me\s+)?(?:that|if|whether)\s+(?P<obj>.+?)\s+(?:is|are)\s+"
            rf"(?:still\s+|already\s+)?(?:on|in)\s+"
            rf"(?:{_MY_LIST}|my\s+{_TASKS}|there|it|the list|list)$",
            _I,
        ),
        examples=(
            "could you simply confirm that paper towels are on my list?",
            "please check that eggs are still on there",
        ),
    ),
    SentenceRule(
        "is X on the list",
        RuleKind.SENTENCE,
        Intent.LIST,
        Action.LOOKUP,
        re.compile(
            rf"^(?:is|are)\s+(?:there\s+)?(?:a\s+task\s+(?:to|for|called)\s+)?(?P<obj>.+?)\s+"
            rf"(?:on|in)\s+(?:{_MY_LIST}|my\s+{_TASKS}|there|list)$",
            _I,
        ),
        examples=(
            "is milk on my list?",
            "is walk the dog on my list?",
            "is honey on there?",
            "Is bread on my list, by any chance?",
        ),
    ),
    SentenceRule(
        "do I have X",
        RuleKind.SENTENCE,
        Intent.LIST,
        Action.LOOKUP,
        re.compile(
            rf"^(?:do|did)\s+i\s+(?:already\s+)?(?:have|add|put)\s+(?:a\s+task\s+(?:to|for|called)\s+)?"
            rf"(?P<obj>(?!any\b|anything\b).+?)\s+(?:on|in|to)\s+(?:{_MY_LIST}|my\s+{_TASKS})$",
            _I,
        ),
        examples=(
            "do I have milk on my list?",
            "did I put eggs on my shopping list?",
            "did I add the dentist to my list",
        ),
    ),
    SentenceRule(
        "do I need to get X",
        RuleKind.SENTENCE,
        Intent.LIST,
        Action.LOOKUP,
        re.compile(
            r"^(?:do|did)\s+(?:i|we)\s+(?:still\s+|already\s+)?need\s+to\s+(?:buy|get|pick up|"
            r"grab|purchase)\s+(?:any\s+|some\s+|more\s+)?(?P<obj>.+)$",
            _I,
        ),
        examples=(
            "do I need to buy milk?",
            "do we still need to get eggs",
            "do I need to pick up more bread?",
        ),
    ),
    SentenceRule(
        "do I have a task to X",
        RuleKind.SENTENCE,
        Intent.LIST,
        Action.LOOKUP,
        re.compile(
            r"^(?:do|did)\s+i\s+(?:already\s+)?(?:have|add|put|make)\s+(?:a|any)\s+(?:task|todo|to-do|"
            r"reminder|item)s?\s+(?:to|for|called|named|about)\s+(?P<obj>.+)$",
            _I,
        ),
        examples=(
            "do I have a task to call mom?",
            "did I make a reminder about the dentist",
            "do I have any tasks about the passport",
        ),
    ),
    SentenceRule(
        "did I already do X (present tense)",
        RuleKind.SENTENCE,
        Intent.LIST,
        Action.LOOKUP,
        re.compile(
            # asked, never a change
            r"^(?:i|we)\s+(?P<obj>(?!(?:want|need|have|think|wonder|don't|do)\b)\w+\s+[^?]+?)\s+"
            r"already(?:\s+(?:today|yesterday|this week))?\s+or\s+(?:not|no)(?:\s+yet)?\b.*$"
            r"|^(?:i\s+want(?:\s+to)?\s+know|tell me)\s+(?:if|whether)\s+(?P<obj2>.+?)\s+"
            r"(?:is|are)\s+(?:already\s+|still\s+)?(?:bought|done|paid|booked|finished|"
            r"on (?:my|the) list)$",
            _I,
        ),
        examples=(
            "i walk the dog already today or not? i don't remember",
            "I want know if the bananas is already bought",
            "tell me whether the rent is paid",
        ),
    ),
    SentenceRule(
        "what does the note on X say",
        RuleKind.SENTENCE,
        Intent.LIST,
        Action.LOOKUP,
        re.compile(
            # the task looked up, its note read out ("it": the task talked about)
            r"^.*?\bwhat(?:'s| is| does| did| was)\s+(?:written\s+in\s+|"
            r"(?:i|we)\s+(?:write|wrote|put)\s+(?:in|on)\s+)?(?:the|my|its)\s+"
            r"(?:note|notes|description)(?:\s+(?:on|for|of|in|about)\s+(?P<obj>[^?,]+?))?"
            r"(?:\s+(?:say|says|read|again|exactly|written))*(?:\s*,.*)?$"
            r"|^(?P<obj2>(?:the|my)\s+[\w' -]+?)\s*,\s*what(?:'s| is| was)\s+(?:the|its)\s+"
            r"(?:note|description)\b.*$",
            _I,
        ),
        examples=(
            "what does the note on my passport one say again?",
            "The passport, what is the note I write for it?",
            "what is written in the note for passport?",
            "what does the note on it say exactly, I know I wrote something down",
        ),
    ),
    SentenceRule(
        "have I done X",
        RuleKind.SENTENCE,
        Intent.LIST,
        Action.LOOKUP,
        re.compile(
            r"^(?:have|did|had)\s+i\s+(?:already\s+|ever\s+|actually\s+)?(?:finish(?:ed)?|"
            r"complete(?:d)?|do|done|tick(?:ed)? off|check(?:ed)? off)\s+(?P<obj>.+)$"
            r"|^(?:have|did)\s+i\s+(?:already\s+|ever\s+|actually\s+)?(?P<obj2>(?!(?:(?:already|"
            r"ever|actually)\s+)*(?:add|added|put|ask|tell|say|mention|get|include|write)\b)\w+\s+.+)$"
            r"|^is\s+(?P<obj3>.+?)\s+(?:done|finished|complete|completed)(?:\s+yet)?$",
            _I,
        ),
        examples=(
            "have I finished the Q4 report?",
            "did I already pay the electricity bill?",
            "have I rung my mother yet?",
            "is the report for Q4 done?",
        ),
    ),
    SentenceRule(
        "what do I have about X",
        RuleKind.SENTENCE,
        Intent.LIST,
        Action.LOOKUP,
        re.compile(
            # "something" only with a question of having ("something for relax" asks nothing)
            r"^(?:(?:tell me|show me)\s+)?(?:(?:what|anything)\s+(?:(?:do\s+)?i\s+have|"
            r"have i got|i have|i've got|is there|do i have)?|something\s+(?:(?:do\s+)?i\s+have|"
            r"have i got|i have|i've got|is there|do i have))\s*(?:got\s+)?"
            r"(?:(?:on|in)\s+(?:there|it|(?:my|the)\s+(?:\w+\s+)?list)\s+)?"
            r"(?:about|for|concerning|regarding|to do with)\s+"
            r"(?P<obj>(?!(?:shopping|groceries|today|tonight|tomorrow|this week|work|home)$).+?)"
            r"(?:\s+(?:on|in)\s+(?:there|(?:my|the)\s+(?:\w+\s+)?list))?$",
            _I,
        ),
        examples=(
            "anything about the report?",
            "anything on there about mom?",
            "what do I have about the dentist",
            "something I have for the car?",
        ),
        not_examples=("something for relax",),
    ),
    # --- updates phrased as statements ----------------------------------------------
    SentenceRule(
        "X should be called Y",
        RuleKind.SENTENCE,
        Intent.UPDATE,
        Action.PLAIN,
        re.compile(
            r"^(?P<target>.+?)\s+(?:should|needs? to|has to|must)\s+(?:be\s+(?:called|named|renamed"
            r"(?:\s+to)?|titled|changed to)|say|read)\s+(?P<newtitle>.+)$",
            _I,
        ),
        examples=(
            "task 2 should be called phone grandma",
            "oops task 10 should say email Sara about the project",
            "call mom should say call mom back",
        ),
    ),
    SentenceRule(
        "make X say Y",
        RuleKind.SENTENCE,
        Intent.UPDATE,
        Action.PLAIN,
        re.compile(
            r"^make\s+(?P<target>(?!it\b|that\b|this\b)[^,]+?)\s+(?:say|read)\s+(?P<newtitle>.+)$",
            _I,
        ),
        examples=(
            "ok google make buy groceries say buy groceries at costco",
            "make the eggs one say a dozen eggs",
        ),
    ),
    SentenceRule(
        "the new name for X is Y",
        RuleKind.SENTENCE,
        Intent.UPDATE,
        Action.PLAIN,
        re.compile(
            r"^(?:[^,]+,\s*)?(?:the\s+)?new\s+(?:name|title)\s+(?:for|of)\s+(?P<target>.+?)\s+"
            r"(?:should be|is|will be|must be)\s+(?P<newtitle>.+)$"
            r"|^(?P<target2>.+?),\s*(?:please\s+)?(?:the\s+|its\s+)?new\s+(?:name|title)\s+"
            r"(?:is|should be|will be|must be|:)\s*(?P<newtitle2>.+)$"
            r"|^(?:put|set)\s+(?P<target3>.+?)\s+to\s+(?:the\s+)?(?:name|title)\s+(?P<newtitle3>.+)$",
            _I,
        ),
        examples=(
            "the eggs task, new name is free range eggs",
            "the new name for the eggs task should be 'quail eggs'",
            "put task 3 to the name call the plumber",
        ),
    ),
    SentenceRule(
        "add a description",
        RuleKind.SENTENCE,
        Intent.UPDATE,
        Action.PLAIN,
        re.compile(
            r"^(?P<desc>(?:add|set|put|give|attach|write|include)\s+(?:a\s+|the\s+|an?\s+|some\s+|"
            r"new\s+)?(?:description|desc|details?|notes?)\b.+)$",
            _I,
        ),
        examples=(
            "add a description to task 3: use the new template",
            "add a note to it: she loves lilies",
            "can you put a note on it saying renew online",
        ),
    ),
    SentenceRule(
        "I haven't done X yet",
        RuleKind.SENTENCE,
        Intent.UPDATE,
        Action.REOPEN,
        re.compile(
            r"^(?:oops,?\s*)?(?:i|we)\s+(?:haven't|have not|didn't|did not|never)\s+(?:actually\s+|"
            r"really\s+|even\s+)?(?P<obj>.+?)(?:\s+(?:yet|after all))$",
            _I,
        ),
        examples=(
            "oops, I haven't actually walked the dog yet",
            "we didn't pay the rent after all",
            "I haven't called mom yet",
        ),
    ),
    # --- reopen ----------------------------------------------------------------------
    SentenceRule(
        "set X to done",
        RuleKind.SENTENCE,
        Intent.COMPLETE,
        Action.PLAIN,
        re.compile(
            r"^(?:set|change|move|switch|put|turn|update)\s+(?P<obj>.+?)\s+(?:to|as|into)\s+"
            r"(?:done|complete|completed|finished)$",
            _I,
        ),
        examples=(
            "set task 9 to done",
            "change the dentist task to completed",
            "move the rent to done",
        ),
    ),
    SentenceRule(
        "mark X as not done",
        RuleKind.SENTENCE,
        Intent.UPDATE,
        Action.REOPEN,
        re.compile(
            r"^(?:mark|set|put)\s+(?P<obj>.+?)\s+(?:as\s+|to\s+)?"
            r"(?:not done|not complete|incomplete|"
            r"undone|unfinished|pending|open)$|^(?:reopen|uncheck|untick|unmark)\s+(?P<obj2>.+)$",
            _I,
        ),
        examples=(
            "mark task 5 as not done",
            "reopen task 7",
            "uncheck the electricity bill",
            "mark the second one as incomplete",
        ),
    ),
    # --- questions about the list -----------------------------------------------------
    SentenceRule(
        "how many",
        RuleKind.SENTENCE,
        Intent.LIST,
        Action.COUNT,
        re.compile(
            r"^(?:.*?\b)?(?:how many|how much|number of)\b.*\b(?:tasks?|to-?dos|todos|items?|"
            r"reminders|chores|errands|left|remain|remaining|pending|completed|done|finished|"
            r"ticked off|checked off|crossed off|to do|on (?:my|the) list)\b.*$"
            # things, counted on the list
            r"|^(?:how many|how much)\s+(?:things|stuff)\b.*\b(?:in|on)\s+(?:my|the)\s+list\b.*$"
            # a total alone: the list is the only thing to count here
            r"|^how many\s+(?:(?:are there|is that|do i have|in)\s+)?(?:total|altogether|overall"
            r"|all together|all up)$",
            _I,
        ),
        examples=(
            "how many tasks do I have left?",
            "how much things now in my list?",
            "how many total",
            "May I ask how many tasks I have completed?",
        ),
    ),
    SentenceRule(
        "question about the list",
        RuleKind.GUESS,
        Intent.LIST,
        Action.PLAIN,
        re.compile(
            rf"^(?:what|what's|whats|which|how many|how much|do i have|have i|did i|anything|any|"
            rf"is there|are there|got any|where)\b(?!.*\b(?:can you do|do you do)\b).*"
            rf"(?:{_TASKS}|{_LIST_NOUN}|left|pending|to do|todo|remaining|finish|finished|"
            rf"complete|completed|done|remind|agenda|outstanding|open|incomplete|asked|told|"
            rf"ones|ticked off|checked off|crossed off|remains)\b.*$",
            _I,
        ),
        examples=(
            "what are my tasks?",
            "anything left for me to do?",
            "which ones have I ticked off",
            "what's still outstanding",
        ),
    ),
    SentenceRule(
        "what is on it",
        RuleKind.SENTENCE,
        Intent.LIST,
        Action.PLAIN,
        re.compile(
            # the list, surely
            r"^(?:what|what's|whats|what is)\s+(?:on|in)\s+(?:it|there)(?:\s+now)?$"
            r"|^what\s+(?:do\s+)?(?:i|we)\s+(?:still\s+)?need\s+(?:to\s+)?(?:buy|get|do)"
            r"(?:\s+now)?$"
            r"|^what\s+(?:was|am|were|are)\s+(?:i|we)\s+(?:supposed|meant)\s+to\s+(?:buy|get|do|"
            r"pick up)(?:\s+(?:now|again|today))*$",
            _I,
        ),
        examples=(
            "whats on it",
            "what's on there now",
            "what i need buy now?",
            "what was I supposed to get again",
        ),
    ),
    SentenceRule(
        "question about my day",
        RuleKind.GUESS,
        Intent.LIST,
        Action.PLAIN,
        re.compile(
            r"^(?:what|what's|whats|anything|is there anything)\b(?=.*\b(?:i|my|me)\b).*"
            r"\b(?:today|tomorrow|tonight|this week|plate|schedule|agenda|up to|coming up)\b.*$",
            _I,
        ),
        examples=(
            "what's on my plate today?",
            "what have I accomplished this week",
        ),
    ),
    # --- imperative verbs leading the request ------------------------------------------
    SentenceRule(
        "leading verb: show",
        RuleKind.LEADING_SHOW,
        Intent.LIST,
        Action.PLAIN,
        re.compile(
            r"^(?:show|list|display|view|see|give me|read me|read out|pull up|bring up|"
            r"read(?=\s+(?:them|those|these|it all|everything|all|my|the list|just|only)\b)|"
            r"(?:go|run|read|walk me) through(?=\s+(?:my|the|all|everything|what)\b)|"
            r"tell me(?!\s+(?:whether|if)\b)"
            r"(?=.*\b(?:tasks?|list|to-?dos?|what|pending|left|done|finish|complete|"
            r"everything|all|my)\b)|"
            r"(?:check|open|print)(?=\s+(?:my|the|what|on|if|whether|all|out|pending|completed)\b)|"
            r"let me see|(?:can|could|may|might) i (?:see|have a look at|hear)|i want to see|"
            r"remind me (?:of|about) (?=(?:the|my|all)\s+(?:tasks|things|items|list)\b)|"
            r"i'd like to see|remind me what)\b"
            r"(?!\s+(?:to|me to)\s)(?P<obj>.*)$",
            _I,
        ),
        examples=(
            "show my pending tasks",
            "show me what's left",
            "tell me my open tasks",
            "let me see everything",
        ),
    ),
    SentenceRule(
        "leading verb: add",
        RuleKind.LEADING_ADD,
        Intent.CREATE,
        Action.PLAIN,
        re.compile(
            r"^(?:add|create|insert|include|new(?= (?:task|todo|to-do|item|reminder|one)\b)|"
            r"jot down|note down|write down|mark down|note to self|note|log|put|stick|pop|throw|"
            r"chuck|toss|"
            r"slap|schedule|"
            r"don'?t let me forget(?: to| about)?|make sure (?:i|to)|"
            r"set up|set a reminder(?: to| for)?|"
            r"make (?:a |me a )?(?:new )?(?:task|todo|to-do|note|"
            r"reminder)(?: to| for| called| named)?|make a note(?: to| of| that)?|"
            r"can you remind me(?: to| about)?|"
            r"remind me(?: to| about| of)?|remember(?: to| that)?|don't forget(?: to| about)?|"
            r"dont forget(?: to| about)?|do not forget(?: to| about)?|"
            r"(?:todo|to-do|task)(?=\s*[:-]))\b[\s:;,-]*"
            r"(?P<obj>.*)$",
            _I,
        ),
        examples=(
            "add buy milk",
            "Create a task to book flights to Lisbon",
            "remind me to call grandma on Sunday",
            "don't forget to pick up the kids at 3",
            "mark down cleaning the bathroom on my list",
        ),
    ),
    SentenceRule(
        "leading verb: complete",
        RuleKind.LEADING_COMPLETE,
        Intent.COMPLETE,
        Action.PLAIN,
        re.compile(
            # "mark down": written down, not done
            rf"^(?:complete|finish|finished|mark(?!\s+down\b)|tick off|tick|check off|check|"
            rf"cross off|cross out|"
            rf"close|done with|done|i(?:'ve| have)? (?:(?:finally|just|already|actually) )?"
            rf"(?:finished|completed|done|did|ticked off|"
            rf"checked off|crossed off|knocked out|wrapped up)|i'm done with|i am done with|"
            rf"i'm finished with|i am finished with|i just (?:finished|completed|did)|"
            rf"i got (?:done with )?)\b\s*(?P<obj>.*?)"
            rf"(?:(?:\s+(?:as\s+)?(?:{_DONE_WORDS}|off)(?:\s+now)?|\s+{_MARKED_AS})?(?:\s+off(?:\s+(?:of\s+)?{_MY_LIST})?)?"
            # an aside after "as completed"
            rf"|\s+as\s+{_DONE_WORDS}[,;]\s+(?!(?:with|except|excluding|apart|other|but|not|"
            rf"save|besides|and|or|plus|also|too)\b).*)$",
            _I,
        ),
        examples=(
            "Mark task 3 as done",
            "tick off #1",
            "I've finished task 6",
            "cross off number 6",
            "mark the passport renewal as completed, the new one arrived today",
        ),
        not_examples=("mark down cleaning the bathroom on my list",),
    ),
    SentenceRule(
        "leading verb: delete",
        RuleKind.LEADING_VERB,
        Intent.DELETE,
        Action.PLAIN,
        re.compile(
            rf"^(?:delete|del|rm|remove|cancel|drop|erase|scrap|trash|bin|ditch|kill|discard|"
            # "take off": "off" belongs to the verb
            rf"get rid of|take\s+off|take(?=.*\b(?:off|from|out of)\b)|cross out|strike|"
            rf"forget(?: about)?|"
            rf"never ?mind(?: about)?(?=\s+\w)|scratch|nix|axe)\b\s*"
            rf"(?P<obj>.*?)(?:\s+(?:off|from|out of)\s+(?:{_MY_LIST}|my\s+{_TASKS}|the list|it))?$",
            _I,
        ),
        examples=(
            "delete task 2",
            "get rid of the dentist appointment",
            "remove milk from my shopping list",
            "forget about the haircut",
            "take off call dad",
        ),
    ),
    SentenceRule(
        "leading verb: update",
        RuleKind.LEADING_VERB,
        Intent.UPDATE,
        Action.PLAIN,
        re.compile(
            r"^(?:change|update|edit|rename|modify|revise|reword|amend|adjust|retitle|"
            r"(?:fix|correct|set|make|call|replace)(?=\s+(?:it|that|this|the|task|its|#?\d)\b))"
            r"\b\s*(?P<obj>.*)$",
            _I,
        ),
        examples=(
            "rename task 4 to review final draft",
            "change that to call the bank on Monday",
            "update task 8's description to bring two photos",
            "fix the typo in task 2",
        ),
    ),
    # --- statements ---------------------------------------------------------------------
    SentenceRule(
        "X should be added",
        RuleKind.SHOULD_BE_ADDED,
        Intent.CREATE,
        Action.PLAIN,
        re.compile(
            rf"^(?P<obj>.+?)\s+(?:should|needs? to|has to|must|could|can|ought to)\s+(?:be|go)\s+"
            rf"(?:added|put|written|on)(?:\s+(?:to|on|onto|in)\s+(?:{_MY_LIST}|my\s+{_TASKS}|it))?$",
            _I,
        ),
        examples=(
            "milk should be added to my shopping list",
            "bread could be put on the list",
        ),
    ),
    SentenceRule(
        "X on my list",
        RuleKind.ON_MY_LIST,
        Intent.CREATE,
        Action.PLAIN,
        re.compile(
            rf"^(?P<obj>.+?)\s+(?:on|to|onto)\s+(?:{_MY_LIST}|list)$",
            _I,
        ),
        examples=(
            "bread on my list",
            "eggs onto my shopping list",
            "new batteries to my list",
        ),
    ),
    SentenceRule(
        "X should be removed",
        RuleKind.SENTENCE,
        Intent.DELETE,
        Action.PLAIN,
        re.compile(
            rf"^(?P<obj>.+?)\s+(?:should|needs? to|has to|must|can|could)\s+(?:be\s+)?"
            rf"(?:removed|deleted|cancelled|canceled|dropped|taken off|go)(?:\s+(?:from|off)\s+"
            rf"(?:{_MY_LIST}|my\s+{_TASKS}))?$",
            _I,
        ),
        examples=(
            "task 10 can go",
            "completed tasks can be deleted",
            "the dentist thing should be removed from my list",
        ),
    ),
    SentenceRule(
        "I don't need X anymore",
        RuleKind.NOT_NEEDED,
        Intent.DELETE,
        Action.PLAIN,
        re.compile(
            r"^(?:i|we)\s+(?:don't|dont|do not|no longer)\s+(?:need|have|want)\s+(?:to\s+)?"
            r"(?P<obj>.+?)(?:\s+(?:anymore|any more|after all|now))?$"
            r"|^no need (?:to|for)\s+(?P<obj2>.+?)(?:\s+(?:anymore|any more))?$"
            r"|^(?P<obj3>.+?)\s+(?:is|isn't|are)\s+(?:no longer|not)\s+"
            r"(?:needed|necessary|happening)"
            r"(?:\s+(?:anymore|any more))?$"
            r"|^(?P<obj4>.+?)\s+(?:is|was|got)\s+(?:cancelled|canceled|called off)$",
            _I,
        ),
        examples=(
            "I don't need to call mom anymore",
            "I no longer need to renew my passport",
            "no need to buy eggs",
            "the dentist is no longer needed",
            "the party is cancelled",
        ),
    ),
    SentenceRule(
        "X not done",
        RuleKind.SENTENCE,
        Intent.UPDATE,
        Action.REOPEN,
        re.compile(
            r"^(?P<obj>(?!(?:it|that|this|i|we|you|nothing|everything|anything|what|which|show|"
            r"list|tasks?|things?|stuff|items?|all|ones|the ones|which ones)\b)[^,]+?)\s+"
            r"(?:(?:is|are)\s+)?(?:still\s+)?not\s+(?:(?:actually|really|quite)\s+)?"
            r"(?:done|finished|finish|complete|completed)"
            r"(?:\s+(?:yet|after all|actually|really|either))*$"
            r"|^(?:(?:ok|okay|so|oh|well|um|ah)[\s,]+)*(?:i|we)\s+lied\s+about\s+(?P<obj2>[^,.]+?)"
            r"(?:\s+(?:though|then|actually))?(?:[,.;]\s*.*)?$"
            # the task first, then "open it again"
            r"|^(?P<obj3>[^,]+?),.*\b(?:open(?:\s+(?:it|that|this|that one))?\s+again|re-?open"
            r"(?:\s+(?:it|that|this|that one))?|un-?tick\s+(?:it|that|this|that one))$",
            _I,
        ),
        examples=(
            "2nd one not done actually",
            "bananas not done",
            "ok I lied about the passport though, that one's still waiting",
            "the third of them, i don't finish really, please open again",
        ),
    ),
    SentenceRule(
        "X is not done",
        RuleKind.SENTENCE,
        Intent.UPDATE,
        Action.REOPEN,
        re.compile(
            r"^(?P<obj>(?!(?:it|that|this|i|we|you|nothing|everything)\b).+?)\s+(?:isn't|is not|"
            r"wasn't|was not|aren't|are not|shouldn't be|should not be|hasn't been|has not been)"
            r"\s+(?:(?:actually|really|quite|truly|marked|ticked|checked|set)\s+)*(?:as\s+)?"
            r"(?:done|finished|complete|completed|off)(?:\s+(?:yet|after all|actually|really))*$",
            _I,
        ),
        examples=(
            "the seventh one shouldn't be marked done",
            "the mom one isn't actually done",
            "2nd one isn't done",
        ),
    ),
    SentenceRule(
        "X is done",
        RuleKind.X_IS_DONE,
        Intent.COMPLETE,
        Action.PLAIN,
        re.compile(
            rf"^(?P<obj>.+?)\s+(?:is|are|was|were|has been|have been|got|now)\s+"
            rf"(?:(?:all|also|now|finally|already)\s+)?"
            rf"(?:{_DONE_WORDS}|taken care of|handled|sorted out)(?:\s+now)?$"
            # "that's not done": never done
            rf"|^(?P<obj2>.+?)(?<!\bnot)(?<!n't)(?<!\bnever)\s+{_DONE_WORDS}$",
            _I,
        ),
        examples=(
            "task 4 is finished now",
            "the passport one is done",
            "the rent has been taken care of",
            "milk done",
        ),
        not_examples=("that's not done",),
    ),
    SentenceRule(
        "X is <done>",
        RuleKind.DONE_STATEMENT,
        Intent.COMPLETE,
        Action.PLAIN,
        re.compile(
            r"^(?P<obj>.+?)\s+(?:is|are|was|were|has been|have been|got)\s+"
            r"(?:all\s+|now\s+|finally\s+)?"
            r"(?!added\b|removed\b|deleted\b|needed\b|cancell?ed\b)(?:\w+ed|paid|bought|sent|"
            r"written|taken|made|sorted|fed|swept|cleaned|booked|read|built|sold|fixed|"
            # a state that says it is done
            r"clean|spotless)(?:\s+now)?(?:[\s,]+(?:finally|at last))?$",
            _I,
        ),
        examples=(
            "dentist appointment is booked",
            "the plants are watered",
            "the rent is paid",
            "the bathroom is clean now, finally",
        ),
    ),
    SentenceRule(
        "I didn't do it",
        RuleKind.DID_IT,
        Intent.UPDATE,
        Action.REOPEN,
        re.compile(
            r"^(?:(?:i|we)\s+(?:didn't|did not|haven't|have not|never)\s+(?:actually\s+|really\s+)?"
            r"(?:finish(?:ed)?|do|done|complete(?:d)?)|"
            r"(?:it|that)\s+(?:isn't|is not|wasn't|was not)\s+(?:actually\s+|really\s+)?"
            r"(?:done|finished|complete))\s*"
            r"(?P<obj>it|that|this|that one)?(?:\s+(?:yet|after all|actually|really))*$",
            _I,
        ),
        examples=(
            "I didn't do it",
            "i didn't finish it",
            "that's not done",
            "so that is not done",
        ),
    ),
    SentenceRule(
        "cross it off",
        RuleKind.CROSS_IT_OFF,
        Intent.COMPLETE,
        Action.PLAIN,
        re.compile(
            r"^(?:cross|tick|check|mark|knock)\s+(?P<obj>it|that|this|that one|this one|them)\s+"
            rf"(?:off|out|done|as done|complete|as complete|as finished|{_MARKED_AS})"
            r"(?:\s+(?:now|too|please))*"
            # then how it got done
            r"(?:[\s,.;!]+(?:i\s+)?(?:got|bought|did|picked|finished|grabbed)\b.*)?$",
            _I,
        ),
        examples=(
            "cross it off",
            "cross that off",
            "k cross it off got some on the way hom",
        ),
    ),
    SentenceRule(
        "I did it",
        RuleKind.DID_IT,
        Intent.COMPLETE,
        Action.PLAIN,
        re.compile(
            r"^(?:(?:i|we)(?:'ve| have)?)\s+(?:just\s+|already\s+|finally\s+|actually\s+)*"
            r"(?!(?:need|needed|wanted|loved|liked|hated|used|meant|forgot)\b)"
            r"(?:\w+ed|did|made|paid|bought|sent|wrote|took|met|went|rang|sold|fed|swept|got)\s+"
            r"(?P<obj>it|her|him|them|that|this|that one)"
            r"(?:\s+(?:just now|already|now|today|this morning|earlier|online|too))*$",
            _I,
        ),
        examples=(
            "ok i just called her",
            "I paid it online",
            "we sent that this morning",
        ),
    ),
    SentenceRule(
        "X <done> (terse)",
        RuleKind.DONE_STATEMENT,
        Intent.COMPLETE,
        Action.PLAIN,
        re.compile(
            r"^(?P<obj>(?:the\s+)?\w+(?:\s+\w+)?)\s+(?:all\s+)?"
            r"(?!added\b|removed\b|deleted\b|needed\b|cancell?ed\b|wanted\b|listed\b)"
            r"(?:\w{3,}ed|paid|bought|sent|written|taken|made|sorted|fed|swept|booked|fixed)$",
            _I,
        ),
        examples=(
            "plants watered",
            "gas bill paid",
            "milk bought",
            "the car fixed",
        ),
    ),
    SentenceRule(
        "the Nth one I did",
        RuleKind.NTH_ONE,
        Intent.COMPLETE,
        Action.PLAIN,
        re.compile(
            r"^(?P<obj>(?:the\s+)?\w+\s+(?:one|row|item|task|entry|line))[\s,]+(?:i\s+)?(?:do|did|"
            r"finish|finished|make|made|complete|completed)\s+(?:it\s+)?(?:already|now|today)$",
            _I,
        ),
        examples=(
            "The second row I do it already.",
            "the second one I did already",
            "the third task I finished today",
        ),
    ),
    SentenceRule(
        "I already do X",
        RuleKind.ALREADY_DONE,
        Intent.COMPLETE,
        Action.PLAIN,
        re.compile(
            # Said by people whose first language marks the past with "already", not "-ed".
            rf"^(?:i|we)\s+(?:already|just)\s+(?P<obj>(?:{'|'.join(sorted(TASK_VERBS))})\s+.+?)"
            r"(?:\s+(?:this morning|today|yesterday|earlier|tonight|just now|last night))?$"
            # the time word says it is done
            r"|^(?:(?:yesterday|today|this morning|earlier|last night|finally|already)[\s,]+)*"
            rf"(?:i|we)\s+(?:finally\s+|also\s+)?(?P<obj2>(?:{'|'.join(sorted(TASK_VERBS))})\s+.+?)"
            r"\s+(?:already|yesterday|this morning|earlier today|just now|last night)"
            r"(?:\s+(?:already|yesterday|this morning|finally))*$"
            r"|^(?:yesterday|this morning|last night|earlier today)[\s,]+(?:finally\s+)?(?:i|we)\s+"
            rf"(?:finally\s+)?(?P<obj3>(?:{'|'.join(sorted(TASK_VERBS))})\s+.+?)$",
            _I,
        ),
        examples=(
            "I already water the plants this morning.",
            "I already buy the eggs",
            "I buy the eggs and the paper towels already",
            "yesterday finally I clean the bathroom",
        ),
    ),
    SentenceRule(
        "X, delete (verb last)",
        RuleKind.SENTENCE,
        Intent.DELETE,
        Action.PLAIN,
        re.compile(
            # the task first, then what to do with it
            r"^(?P<obj>(?!(?:please|i|we|you|it|that|this|can|could|do|did|don't|not|never)\b)"
            r"[\w'-]+(?:\s+[\w'-]+){0,4}?)[\s,]+(?:also\s+|too\s+|please\s+)*"
            r"(?:delete|remove|erase)(?:\s+(?:it|please|also|too|pls))*$",
            _I,
        ),
        examples=(
            "the dentist also delete",
            "the dentist thing, delete it",
            "milk, remove please",
        ),
    ),
    SentenceRule(
        "X, I did (object first)",
        RuleKind.DID_X,
        Intent.COMPLETE,
        Action.PLAIN,
        re.compile(
            # the task first, then that it was done: "the second one I actually did on the way in"
            # the task named with its article ("the second one", "my passport") first
            r"^(?P<obj>(?:the|my|our|those|these)\s+"
            r"[\w'-]+(?:\s+[\w'-]+){0,3}?)[\s,]+(?:i|we)(?:'ve|\s+have)?\s+"
            r"(?:actually\s+|already\s+|just\s+|finally\s+|also\s+)*"
            # the verb has no object of its own: "I finished the report" is another rule's
            r"(?:did|done|finished|completed|sorted)\b(?!\s+(?:not|n't|the|a|an|my|our|his|her|"
            r"their|this|that|those|these|it|\w+ing)\b)[^;?]*$",
            _I,
        ),
        examples=(
            "the second one I actually did on the way in",
            "the passport I've done already",
            "the dentist, I finally did",
        ),
        not_examples=(
            "what I did today",
            "the report I did not finish",
            "ahh finally, I finished the report, sent it off",
        ),
    ),
    SentenceRule(
        "I did X (past tense)",
        RuleKind.DID_X,
        Intent.COMPLETE,
        Action.PLAIN,
        re.compile(
            r"^(?:(?:i|we)(?:'ve| have)?)?\s*(?:just\s+|already\s+|finally\s+|also\s+)*"
            # "I've got people coming over on Saturday": having, not getting
            r"(?!got\s+(?:people|guests|friends|company|family|visitors|a lot|so much|to|no|"
            r"nothing)\b)"
            r"(?P<obj>(?!(?:added|asked|"
            r"needed|wanted|started|tried|planned|decided|forgot|used|liked|loved|hated|hoped|"
            r"wished|created|deleted|removed|changed|updated|renamed|listed|showed|called off|"
            r"cancelled|canceled|mentioned|said|told|meant|thought)\b)(?:\w+(?<!e)ed|got|did|made|"
            r"paid|bought|sent|wrote|took|met|went|rang|sold|built|brought|fed|swept|ran|"
            r"picked up|dropped off)\b\s+\S.*)$",
            _I,
        ),
        examples=(
            "I called mom",
            "I watered the plants",
            "renewed my passport!",
            "just got the groceries",
            "I've renewed my passport",
        ),
        not_examples=("I've got people coming over on Saturday",),
    ),
    SentenceRule(
        "I need to X",
        RuleKind.NEED_TO,
        Intent.CREATE,
        Action.PLAIN,
        re.compile(
            r"^(?:(?:i|we)\s+(?:really\s+|also\s+|still\s+)?"
            r"(?:need to|have to|gotta|got to|'ve got to|"
            # "I must be mistaken": a state of mind, no task
            r"(?:must|should)(?!\s+be\s+(?:mistaken|wrong|confused|crazy|dreaming|joking)\b)"
            # "I must have forgotten to put it on": what happened, no task
            r"(?!\s+have\s+\w+(?:ed|en|ne|t|ught)\b)|"
            r"ought to|want to|wanna|need)"
            # said without the "I"
            r"|(?:also\s+|still\s+)?(?:need to|gotta|need))\s+"
            # "i need to know again", "i have to get going": said to the assistant, no task
            r"(?!(?:to\s+)?(?:know|get going|go now|leave now|hear|repeat|"
            r"have (?:that|it|this) repeated|"
            r"(?:for you to )?ask (?:you|the question))\b)(?P<obj>.+)$",
            _I,
        ),
        examples=(
            "I need to buy milk",
            "I have to return the rental car",
            "i gotta get gas",
            "need shampoo and tooth paste",
        ),
        not_examples=(
            "I must be mistaken",
            "I must have forgotten to put it on in the first place",
            "i need to know again",
            "i have to get going",
        ),
    ),
    # --- "Buy groceries" is a task in itself (the spec's natural-language flexibility) ---
    SentenceRule(
        "a task phrase on its own",
        RuleKind.TASK_PHRASE,
        Intent.CREATE,
        Action.PLAIN,
        re.compile(
            r"^(?P<obj>(?:buy|call|phone|ring|email|e-mail|text|message|pay|book|pick up|drop off|"
            r"clean|wash|write|send|post|mail|get|grab|order|return|renew|water|walk|feed|cook|"
            r"prepare|submit|file|meet|visit|study|practice|practise|read|learn|bake|fetch|bring|"
            r"collect|organize|organise|plan|prep|vacuum|mow|iron|fold|repair|sign|print|apply|"
            r"register|cancel my|go to|go for|attend|make an appointment|make a reservation|"
            r"reserve|donate|sell|ship|pack|unpack|charge|back up|backup|upload|download|install|"
            r"tidy|sweep|mop|shop for|research|review|draft|finish up|follow up|reply to|"
            r"respond to|thank|invite|ask(?! you\b)|tell(?! me\b))\b\s+\S.*)$",
            _I,
        ),
        examples=(
            "buy milk",
            "feed the cat",
            "water the garden",
            "pick up dry cleaning",
            "call dad tomorrow",
        ),
    ),
    # --- a bare noun phrase asking for the list ------------------------------------------
    SentenceRule(
        "the list itself",
        RuleKind.GUESS,
        Intent.LIST,
        Action.PLAIN,
        re.compile(
            rf"^(?:(?:my|all|all my|the|our)\s+(?:(?:pending|completed|done|open|finished|"
            rf"incomplete|remaining|current|today's)\s+)?(?:{_TASKS}|{_LIST_NOUN}|agenda)|"
            rf"(?:(?:pending|completed|done|open|finished|incomplete|remaining|current|today's)\s+)?"
            rf"(?:tasks|to-?dos|todos|items|reminders|chores|errands|{_LIST_NOUN}|agenda))"
            r"(?:\s*[^\w\s]+)*$",
            _I,
        ),
        examples=(
            "my tasks pls",
            "todo list",
            "all my tasks",
            "my agenda",
        ),
    ),
)
