"""Replies to small talk and to requests meant for another assistant.

Neither changes anything. Small talk gets a short friendly answer in kind (thanks, bye, how
are you, praise, a complaint, "are you a bot"); another assistant's job (alarms, weather,
music, calendar...) gets a plain "that's not something I can do" naming what it is, and what
the assistant can do instead. Never "could you rephrase": the user was clear, just not about
tasks.
"""

from __future__ import annotations

import re

_I = re.IGNORECASE

# (pattern, reply), first match wins; the last reply is the catch-all.
_SOCIAL: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, _I), reply)
    for pattern, reply in (
        (
            r"\b(?:thanks?|thank you|thx|ty|cheers|appreciated?|grateful)\b",
            "You're welcome! Anything else on your list?",
        ),
        (
            r"\b(?:bye|goodbye|good night|goodnight|see you|see ya|later|farewell|talk soon|"
            r"that's all|that is all|i'm done for now|signing off)\b",
            "Goodbye! Your tasks will be here when you come back.",
        ),
        (
            r"\b(?:how are you|how're you|how are things|how(?:'s| is) it going|how do you do|"
            r"how(?:'s| is) your day|how have you been)\b",
            "I'm doing well, thanks for asking! What can I do for your list?",
        ),
        (
            r"\b(?:wrong|not correct|incorrect|mistake|not what i|useless|stupid|dumb|bad|"
            r"terrible|awful|hate|annoying|not right|doesn't work|didn't work|confused me|"
            r"so long|so slow|too slow|takes forever|crash(?:es|ed)?|keeps freezing)\b",
            "Sorry about that. Tell me what you'd like done with your tasks and I'll fix it.",
        ),
        (
            r"\b(?:are you (?:a |an )?(?:bot|robot|human|real|person|ai|computer|machine)|"
            r"who (?:made|built|created|programmed|designed) you|what(?:'s| is) your name|"
            r"who are you|what are you|your name)\b",
            "I'm your task assistant, a program that keeps your to-do list. "
            "I can add, show, complete, update and delete tasks.",
        ),
        (
            r"\b(?:joke|funny|laugh|make me smile)\b",
            "I'm better at lists than jokes! Want to hear what's on yours instead?",
        ),
        (
            r"\b(?:great|good job|well done|awesome|amazing|perfect|nice|cool|excellent|"
            r"love (?:you|it|this)|you(?:'re| are) (?:the best|great|awesome|smart|helpful|good)|"
            r"brilliant|fantastic|wonderful|impressive|easier|changed my life|lifesaver|life saver|"
            r"saving my|so helpful|productive)\b",
            "Thank you! Happy to help with your tasks.",
        ),
        (
            r"^(?:(?:yes|yeah|yep|yup|sure|ok|okay|alright|all right|correct|right|exactly|"
            r"indeed|absolutely|definitely|of course|fine|that's right|true|no|nope|nah|"
            r"not really|never ?mind|cancel|stop|don't|wait|maybe|perhaps|i don't know|"
            r"not sure|whatever|i don't care|doesn't matter)\b.*)$",
            "Okay! Tell me whenever you'd like to add, see, or change a task.",
        ),
    )
)
_SOCIAL_FALLBACK = "I'm here to help with your tasks. What would you like to do with your list?"

_TOPICS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, _I), what)
    for pattern, what in (
        (r"\balarms?\b|\bwake me\b", "set alarms"),
        (r"\btimers?\b|\bcount ?down\b", "run timers"),
        (
            r"\bweather\b|\brain\b|\bforecast\b|\btemperature\b|\bsnow\b|\bsunny\b",
            "check the weather",
        ),
        (
            r"\bcalendar\b|\bmeetings?\b|\bevents?\b|\bappointments? (?:on|in) my\b",
            "manage your calendar",
        ),
        (
            r"\bmusic\b|\bsongs?\b|\bplaylists?\b|\bplay\b|\bradio\b|\bpodcasts?\b|\bvolume\b",
            "play music",
        ),
        (
            r"\b(?:call|dial|phone)\b(?=.*\b(?:now|for me|him|her|them)\b)|\btext\b|\bsms\b",
            "make calls or send messages",
        ),
        (r"\border\b|\bdeliver|\bcart\b|\bpurchase\b", "place orders"),
        (
            r"\bbills?\b|\bbank\b|\bbalance\b|\bpay\b|\btransfer\b|\bcredit\b",
            "handle payments or banking",
        ),
        (r"\brecipes?\b|\bcook\b|\bingredients?\b", "look up recipes"),
        (r"\btime\b|\bdate\b|\bday is it\b|\bholiday\b", "tell the time or date"),
        (r"\blights?\b|\bthermostat\b|\bheating\b|\bvacuum\b|\bplug\b", "control your home"),
        (r"\bnews\b|\bheadlines?\b", "read the news"),
        (r"\btranslate\b|\bspell\b|\bdefine\b|\bmeaning of\b", "translate or define words"),
        (
            r"\bflight\b|\btravel\b|\bhotel\b|\btrain\b|\buber\b|\btaxi\b|\bdirections?\b|\btraffic\b",
            "plan travel",
        ),
    )
)


# Talk about the assistant itself, or thanks: small talk, however long ("this thing has made
# my life so much easier", "why does this app take so long to load", "you're saving my
# sibling relationships"), never another assistant's job.
_ABOUT_THE_ASSISTANT = re.compile(
    r"\b(?:this|the|your)\s+(?:app|thing|bot|assistant|tool|program|service|chatbot)\b"
    r"(?!\s+(?:on|in|from|off)\b)|\byou(?:'re|'ve| are)\b(?!\s+(?:at|in|on|by)\b)|"
    r"\bthank(?:s| you)\b|\bcheers\b|"
    r"\bare you\b(?=.*\b(?:bot|robot|human|person|real|ai|machine|program)\b)|"
    r"\bdo you (?:ever|like|enjoy|get (?:bored|tired|sick)|feel|sleep|dream|have feelings)\b|"
    # "why are you so slow today": a complaint about the assistant
    r"\bwhy (?:are|do|did|can't|won't|don't|is) (?:you|this)\b|"
    # "ur slow today" (read as "your slow today"), "u r the best": only before a judgement
    r"\b(?:ur|u r|youre|your)\s+(?:so\s+|really\s+|too\s+|very\s+|kinda\s+|a\s+)?"
    r"(?:slow|fast|quick|useless|dumb|stupid|smart|awesome|amazing|funny|helpful|the best|"
    r"annoying|rubbish|lifesaver|legend|genius)\b",
    _I,
)
# A message that is nothing but thanks or goodbye: "cheers, have a good one", "ta".
_ONLY_THANKS_OR_BYE = re.compile(
    r"^(?:(?:thanks?|thank you|thx|ty|ta|cheers|much appreciated|appreciate it|bye|bye bye|"
    r"goodbye|good night|goodnight|night night|nighty night|night|see you|see ya|later|"
    r"catch you later|talk soon|"
    r"have a (?:good|great|nice|lovely) (?:one|day|night|evening|weekend)|take care|"
    r"you(?:'re| are) the best|you rock|legend|many thanks|"
    r"that(?:'s| is| will be|'ll be) (?:everything|all|it)(?: for (?:now|today|tonight|the day))?)"
    r"(?:\s+(?:so much|very much|a lot|mate|buddy|again|genuinely|really|then|now|for now|"
    r"x+))*[\s,.!]*)+$",
    _I,
)


def is_only_thanks_or_goodbye(text: str) -> bool:
    return _ONLY_THANKS_OR_BYE.match(text.strip()) is not None


def names_another_job(text: str) -> bool:
    """Whether the text names another assistant's job (alarms, weather, orders...)."""
    return any(pattern.search(text) for pattern, _ in _TOPICS)


def is_about_the_assistant(text: str) -> bool:
    """Whether the text talks about the assistant (or thanks it) and names no other job."""
    return _ABOUT_THE_ASSISTANT.search(text) is not None and not names_another_job(text)


def social_reply(text: str) -> str:
    for pattern, reply in _SOCIAL:
        if pattern.search(text):
            return reply
    return _SOCIAL_FALLBACK


def off_topic_reply(text: str) -> str:
    for pattern, what in _TOPICS:
        if pattern.search(text):
            return (
                f"I can't {what}, but I can keep your to-do list: "
                "add, show, complete, update or delete tasks."
            )
    return (
        "That's outside what I can do: I keep your to-do list. "
        "Try 'add buy milk' or 'show my tasks'."
    )
