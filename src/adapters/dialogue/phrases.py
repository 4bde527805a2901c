"""The offline answerer's own words, one bank per register; `{name}`-style slots are filled by the engine.

Quoted knowledge and memories keep their words; these are only the words around them (greetings, honest
"I don't know"s, small talk). No bank pads an answer: nothing here is said after the answer itself.
"""

from __future__ import annotations

GREETING = {
    "formal": ["Good day{name_comma}.", "Hello{name_comma}. It is a pleasure to speak with you."],
    "neutral": ["Hello{name_comma}!", "Hi{name_comma}, good to hear from you!", "Hi there{name_comma}!"],
    "casual": ["Hey{name_comma}!", "Hey there{name_comma}!", "Hi{name_comma}!"],
}
GREETING_WARM = {
    "formal": ["It is lovely to hear from you."],
    "neutral": ["It's really nice to hear from you.", "I'm glad you stopped by."],
    "casual": ["So good to hear from you!", "Great to have you here!"],
}
INTRODUCE = {
    "formal": ["I am {persona}."],
    "neutral": ["I'm {persona}."],
    "casual": ["I'm {persona}."],
}
OFFER_HELP = {
    "formal": ["How may I help you today?", "What would you like to discuss?"],
    "neutral": ["What would you like to talk about?", "How can I help you today?"],
    "casual": ["What's on your mind?", "What are we chatting about today?"],
}
HOW_ARE_YOU = {
    "formal": ["I am doing well, thank you for asking.", "I am very well, thank you."],
    "neutral": ["I'm doing well, thanks for asking!", "I'm good, thank you!"],
    "casual": ["I'm doing great, thanks!", "Pretty good, thanks for asking!"],
}
ASK_BACK_HOW = {
    "formal": ["How are you today?", "And how are you?"],
    "neutral": ["How are you doing?", "How about you?"],
    "casual": ["How about you?", "How's your day going?"],
}
THANKS = {
    "formal": ["You are most welcome.", "It was my pleasure."],
    "neutral": ["You're welcome!", "Happy to help!"],
    "casual": ["No problem!", "Anytime!", "You got it!"],
}
ANYTHING_ELSE = {
    "formal": ["Is there anything else I can help you with?"],
    "neutral": ["Is there anything else you'd like to know?"],
    "casual": ["Anything else?", "Need anything else?"],
}
BYE = {
    "formal": ["Goodbye{name_comma}. It was a pleasure speaking with you.", "Farewell{name_comma}."],
    "neutral": ["Goodbye{name_comma}, it was nice talking with you!", "Bye for now{name_comma}!"],
    "casual": ["See you later{name_comma}!", "Bye{name_comma}! Catch you later!"],
}
BYE_WARM = {
    "formal": ["Please take good care."],
    "neutral": ["Take care!"],
    "casual": ["Take care of yourself!"],
}
ACK = {
    "formal": ["Understood.", "Very well."],
    "neutral": ["Okay!", "Alright."],
    "casual": ["Cool!", "Got it!"],
}
WHAT_NEXT = {
    "formal": ["What would you like to discuss next?"],
    "neutral": ["What would you like to talk about next?"],
    "casual": ["What's next?"],
}
NICE_TO_MEET = {
    "formal": ["It is a pleasure to meet you, {name}."],
    "neutral": ["Nice to meet you, {name}!"],
    "casual": ["Nice to meet you, {name}!", "Great to meet you, {name}!"],
}
# Lead-ins that cite the material naturally; the sentence that follows keeps its own words.
STATEMENT_ACK = {
    "formal": ["Thank you for telling me.", "That is interesting."],
    "neutral": ["That sounds interesting!", "Thanks for sharing that."],
    "casual": ["Oh, nice!", "Oh, cool!"],
}
TELL_ME_MORE = {
    "formal": ["Would you tell me more about {topic}?"],
    "neutral": ["Tell me more about {topic}?", "What else can you tell me about {topic}?"],
    "casual": ["Tell me more about {topic}!", "How's that going?"],
}
YOUR_NAME = {
    "formal": ["Your name is {name}."],
    "neutral": ["Your name is {name}!", "You're {name}!"],
    "casual": ["You're {name}, of course!", "It's {name}!"],
}
YOU_TOLD_ME = {
    "formal": ["You mentioned that {s}.", "I recall that {s}."],
    "neutral": ["You told me {s}.", "I remember that {s}."],
    "casual": ["You told me {s}!", "If I remember right, {s}."],
}
WHO_AM_I = {
    "formal": ["I am {persona}."],
    "neutral": ["I'm {persona}!"],
    "casual": ["I'm {persona}!"],
}
EMPATHY = {
    "sad": {
        "formal": [
            "I am sorry to hear that you are feeling {word}.",
            "I am sorry you are going through this.",
        ],
        "neutral": ["I'm sorry you're feeling {word}.", "I'm really sorry to hear that."],
        "casual": ["Oh no, I'm sorry you're feeling {word}.", "Aw, I'm sorry to hear that."],
    },
    "stressed": {
        "formal": ["That sounds very stressful.", "I understand that feeling {word} can be difficult."],
        "neutral": ["That sounds really stressful.", "I'm sorry you're feeling so {word}."],
        "casual": ["Ugh, that sounds stressful.", "Oof, feeling {word} is no fun."],
    },
    "angry": {
        "formal": ["I understand why you would feel {word}.", "That sounds genuinely frustrating."],
        "neutral": ["That sounds really frustrating.", "I get why you're feeling {word}."],
        "casual": ["Ugh, that's so annoying.", "I'd be {word} too, honestly."],
    },
    "tired": {
        "formal": ["I am sorry that you are feeling {word}.", "That sounds exhausting."],
        "neutral": ["I'm sorry you're so {word}.", "That sounds exhausting."],
        "casual": ["Oof, being {word} is rough.", "Sounds like you need a break."],
    },
    "happy": {
        "formal": ["That is wonderful to hear.", "I am delighted that you are feeling {word}."],
        "neutral": ["That's wonderful to hear!", "I'm so glad you're feeling {word}!"],
        "casual": ["That's awesome!", "Yay, love that for you!"],
    },
}
EMPATHY_DEEP = {
    "negative": {
        "formal": [
            "Your feelings are completely valid, and I am here to listen.",
            "It is entirely understandable to feel that way.",
        ],
        "neutral": [
            "It's completely okay to feel that way, and I'm here for you.",
            "That's a lot to carry, and your feelings make sense.",
        ],
        "casual": ["Totally okay to feel like that, I'm here for you.", "That's a lot, and it makes sense."],
    },
    "positive": {
        "formal": ["You must be very pleased.", "I share in your happiness."],
        "neutral": ["You must be really pleased!", "I'm genuinely happy for you!"],
        "casual": ["You deserve it!", "I'm so happy for you!"],
    },
}
EMPATHY_FOLLOW = {
    "negative": {
        "formal": ["Would you like to talk about what is troubling you?"],
        "neutral": ["Do you want to talk about it?", "What's been going on?"],
        "casual": ["Want to talk about it?", "What's going on?"],
    },
    "positive": {
        "formal": ["What is the occasion?"],
        "neutral": ["What happened?", "Tell me everything!"],
        "casual": ["What happened?", "Spill the details!"],
    },
}
QUIPS = {
    "answer": [
        "No pop quiz afterwards, I promise.",
        "Consider me your pocket encyclopedia, minus the dust.",
        "I'd tell you a chemistry joke, but I know I wouldn't get a reaction.",
    ],
    "greeting": ["I've been practising my small talk all day.", "I was hoping you'd drop by."],
    "thanks": ["I accept payment in compliments.", "Tips are not required, but smiles are welcome."],
    "unknown": [
        "My knowledge has a few holes, like a good Swiss cheese.",
        "Even encyclopedias have blank pages.",
    ],
    "bye": ["Don't be a stranger!", "I'll be here, practising my jokes."],
}
SURE = {
    "formal": ["Certainly{name_comma}.", "Of course{name_comma}."],
    "neutral": ["Sure{name_comma}!", "Of course{name_comma}!"],
    "casual": ["Sure thing{name_comma}!", "You bet{name_comma}!"],
}
DONT_KNOW = {
    "formal": [
        "I am afraid I do not know about {topic}.",
        "I do not know about {topic}, and I would rather not guess.",
    ],
    "neutral": ["I'm not sure about {topic}.", "I don't know about {topic}, and I'd rather not guess."],
    "casual": ["Hmm, I don't know about {topic}.", "I don't know about {topic}, I'm afraid."],
}
I_KNOW_ABOUT = {
    "formal": ["I can help with {topics}."],
    "neutral": ["I can help with {topics}."],
    "casual": ["I can help with {topics}, though!"],
}
NOT_TOLD = {
    "formal": ["I do not believe you have told me {what} yet."],
    "neutral": ["I don't think you've told me {what} yet."],
    "casual": ["Hmm, I don't think you've told me {what} yet!"],
}
ASK_NAME = {"formal": ["May I ask your name?"], "neutral": ["What's your name?"], "casual": ["What's your name?"]}
YOU_TOLD_ME_ALL = {
    "formal": ["You have told me that {s}."],
    "neutral": ["You told me that {s}."],
    "casual": ["You told me {s}!"],
}

